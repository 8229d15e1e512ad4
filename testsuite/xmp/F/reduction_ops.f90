! xmpc-test: np=1,2,4
! every Fortran reduction operator of the reduction directive
program reduction_ops
  implicit none
  include 'xmp_lib.h'
  integer :: me, np, k, err
  integer :: isum, iprod, isub, imax, imin, band, bor, bxor
  integer :: esum, eprod, emax, emin, eand, eor, exor
  real(8) :: dsum, dmax
  real :: rmin
  integer(8) :: lsum
  logical :: land, lor, leqv, lneqv, x
  logical :: eeqv, eneqv
!$xmp nodes p(*)
  me = xmp_node_num()
  np = xmp_num_nodes()
  err = 0
  isum = me; iprod = me; isub = me; imax = me; imin = me
  band = 2**(me+1) - 1; bor = 2**(me-1); bxor = me
  dsum = me * 0.5d0; dmax = -me; rmin = real(me) * 2.0
  lsum = int(me, 8) * 10000000000_8
  land = me /= 2; lor = me == np; leqv = me /= 3; lneqv = me == 1
!$xmp reduction(+:isum, dsum, lsum)
!$xmp reduction(*:iprod)
!$xmp reduction(-:isub)
!$xmp reduction(max:imax, dmax)
!$xmp reduction(min:imin, rmin)
!$xmp reduction(iand:band)
!$xmp reduction(ior:bor)
!$xmp reduction(ieor:bxor)
!$xmp reduction(.and.:land)
!$xmp reduction(.or.:lor)
!$xmp reduction(.eqv.:leqv)
!$xmp reduction(.neqv.:lneqv)
  esum = 0; eprod = 1; emax = 1; emin = 1; eand = -1; eor = 0; exor = 0
  eeqv = .true.; eneqv = .false.
  do k = 1, np
    esum = esum + k; eprod = eprod * k; emax = max(emax, k)
    eand = iand(eand, 2**(k+1) - 1); eor = ior(eor, 2**(k-1)); exor = ieor(exor, k)
    x = k /= 3
    if (k == 1) then
      eeqv = x
    else
      eeqv = eeqv .eqv. x
    end if
    eneqv = eneqv .neqv. (k == 1)
  end do
  if (isum /= esum .or. isub /= esum) err = err + 1
  if (iprod /= eprod) err = err + 2
  if (imax /= emax .or. imin /= emin) err = err + 4
  if (band /= eand .or. bor /= eor .or. bxor /= exor) err = err + 8
  if (dsum /= esum * 0.5d0 .or. dmax /= -1.0d0 .or. rmin /= 2.0) err = err + 16
  if (lsum /= int(esum, 8) * 10000000000_8) err = err + 32
  if (land .neqv. (np < 2)) err = err + 64
  if (.not. lor) err = err + 128
  if (leqv .neqv. eeqv) err = err + 256
  if (lneqv .neqv. eneqv) err = err + 512
!$xmp reduction(max:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program reduction_ops
