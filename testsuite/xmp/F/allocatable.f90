! xmpc-test: np=1,2,4
! allocatable aligned arrays: created at their allocate statement (sizes known only
! at run time), with a shadow and reflect; deallocate
program allocatable
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 26
  integer :: i, err, m
  real(8), allocatable :: a(:), b(:)
  integer, allocatable :: plain(:)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a, b
!$xmp shadow a(1:1)
  m = n
  allocate(a(m), plain(3))
  allocate(b(1:m))
  plain = 1
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
!$xmp reflect (a)
!$xmp loop on t(i) reduction(+:err)
  do i = 2, n - 1
    b(i) = a(i - 1) + a(i + 1)
    if (b(i) /= 2 * i) err = err + 1
  end do
  deallocate(a, plain)
  deallocate(b)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program allocatable
