! xmpc-test: np=2,3
! Omni's coarrays without SAVE in a procedure (`integer :: kid(3)[2,*]`, `real x[*]`,
! several on one line, beside a dummy and an automatic array): xmpc gives them SAVE;
! a codimension in a DIMENSION statement (FFB-MINI's `DIMENSION BUFSND(MAXBUF)[*]`)
subroutine ffb(nerr)
  integer :: nerr
  parameter (maxbuf = 8)
  real*8 bufsnd, bufrcv
  dimension bufsnd(maxbuf)[*], bufrcv(maxbuf)
  me = this_image()
  bufsnd = me
  sync all
  bufrcv = bufsnd(:)[1]
  if (any(bufrcv /= 1d0)) then
    print *, 'ERROR line 14: ffb', me, bufrcv
    nerr = nerr + 1
  end if
  sync all
end subroutine ffb

module caf_omni_save_m
contains
  integer function ring(n) result(r)
    integer, intent(in) :: n
    integer :: v(n), box(2)[*], k
    v = this_image()
    box = 0
    sync all
    k = this_image() + 1
    if (k > num_images()) k = 1
    box(2)[k] = v(n)
    sync all
    r = box(2)
  end function ring
end module caf_omni_save_m

subroutine party(nerr)
  integer :: nerr
  integer :: kid(3)[2,*], z, w[*]
  real x[*]
  me = this_image()
  kid = me * 10
  w = me
  x = 0.5 * me
  sync all
  z = kid(2)[1, 1]
  if (z /= 10 .or. w[1] /= 1 .or. x[1] /= 0.5) then
    print *, 'ERROR line 47: party', me, z, w[1], x[1]
    nerr = nerr + 1
  end if
  sync all
end subroutine party

program caf_omni_save
  use caf_omni_save_m
  integer :: nerr
  nerr = 0
  call party(nerr)
  call party(nerr)
  call ffb(nerr)
  me = this_image()
  k = me - 1
  if (k == 0) k = num_images()
  if (ring(4) /= k) then
    print *, 'ERROR line 64: ring', me
    nerr = nerr + 1
  end if
  if (nerr /= 0) error stop 1
  sync all
  if (me == 1) print '(a)', 'PASS'
end program caf_omni_save
