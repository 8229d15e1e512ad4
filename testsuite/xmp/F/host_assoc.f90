! xmpc-test: np=1,2,4
! a contained procedure uses the host's template and distributed array in loop and
! reflect directives (host association)
program host_assoc
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 20
  integer :: err
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(1:1)
  call fill()
  err = check()
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  subroutine fill()
    integer :: i
!$xmp loop on t(i)
    do i = 1, n
      a(i) = i * i
    end do
  end subroutine fill
  integer function check()
    integer :: i
    check = 0
!$xmp reflect (a)
!$xmp loop on t(i)
    do i = 2, n - 1
      if (a(i - 1) /= (i - 1)**2 .or. a(i + 1) /= (i + 1)**2) check = check + 1
    end do
  end function check
end program host_assoc
