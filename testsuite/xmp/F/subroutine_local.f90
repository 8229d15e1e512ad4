! xmpc-test: np=1,2,4
! directives in a subroutine: its own nodes/template/aligned array, called twice
program subroutine_local
  implicit none
  include 'xmp_lib.h'
  integer :: err
  err = 0
  call work(10, err)
  call work(33, err)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program subroutine_local

subroutine work(n, err)
  implicit none
  integer, intent(in) :: n
  integer, intent(inout) :: err
  integer :: i
  real(8) :: a(n), s
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
  s = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  if (s /= n * (n + 1) / 2) err = err + 1
end subroutine work
