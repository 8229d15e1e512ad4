! xmpc-test: np=1,2,4
! save_desc: a subroutine's node set, template and aligned arrays keep their
! descriptors from one call to the next (built at the first call only, never
! freed). The `save` array keeps its contents; loop, reflect and reduction work
! at every call (b and c are fully rewritten before they are read).
program save_desc
  implicit none
  include 'xmp_lib.h'
  integer(8) :: s1, s2, s3
  integer :: err, k
  err = 0
  do k = 1, 6
    call step(k, s1, s2, s3)
    ! a accumulates 1..20 once per call
    if (s1 /= k * 210_8) err = err + 1
    ! b(i) = i*k, reflected: sum over i = 2..19 of b(i-1) + b(i+1) = 2*k*189
    if (s2 /= 378_8 * k) err = err + 1
    ! c(j, i) = i + 200*j*k, 2-D with a non-distributed dimension
    if (s3 /= 3 * 210_8 + 24000_8 * k) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  subroutine step(k, s1, s2, s3)
    integer :: k
    integer(8) :: s1, s2, s3
    integer :: i, j
    integer, save :: a(20)
    integer :: b(20)
    integer(8) :: c(3, 20)
!$xmp nodes p(*)
!$xmp template t(20)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp align b(i) with t(i)
!$xmp align c(*, i) with t(i)
!$xmp shadow b(1)
!$xmp save_desc :: p, t, a, b
!$xmp save_desc c
    if (k == 1) then
!$xmp loop on t(i)
      do i = 1, 20
        a(i) = 0
      end do
    end if
!$xmp loop on t(i)
    do i = 1, 20
      a(i) = a(i) + i
      b(i) = i * k
      do j = 1, 3
        c(j, i) = i + 200 * j * k
      end do
    end do
!$xmp reflect (b)
    s1 = 0
    s2 = 0
    s3 = 0
!$xmp loop on t(i) reduction(+:s1, s2, s3)
    do i = 1, 20
      s1 = s1 + a(i)
      if (i > 1 .and. i < 20) s2 = s2 + b(i - 1) + b(i + 1)
      do j = 1, 3
        s3 = s3 + c(j, i)
      end do
    end do
  end subroutine step
end program save_desc
