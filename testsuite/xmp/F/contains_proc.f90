! xmpc-test: np=1,2,4
! a main program with contained procedures; a distributed array passed to a subroutine
program contains_proc
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 24
  integer :: i, err
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = twice(i)
  end do
!$xmp loop on t(i)
  do i = 1, n
    call check(a(i), 2 * i)
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  integer function twice(k)
    integer, intent(in) :: k
    twice = 2 * k
  end function twice
  subroutine check(x, want)
    integer, intent(in) :: x, want
    if (x /= want) err = err + 1
  end subroutine check
end program contains_proc
