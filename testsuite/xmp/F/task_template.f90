! xmpc-test: np=1,2,4
! task on t(i): only the owner of template index i runs the body
program task_template
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16
  integer :: i, err, ran
  integer :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
  err = 0
  ran = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  do i = 1, n, 5
!$xmp task on t(i)
    ran = ran + 1
    if (a(i) /= i) err = err + 1
!$xmp end task
  end do
!$xmp reduction(+:ran, err)
  if (err /= 0 .or. ran /= 4) then
    print *, 'ERROR', err, ran
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program task_template
