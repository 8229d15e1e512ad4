! xmpc-test: np=1,2,4
! `task` (and other directives) inside the cases of `select case`
program task_select
  implicit none
  include 'xmp_lib.h'
  integer :: k, s, err, nn, me
!$xmp nodes p(*)
  err = 0
  nn = xmp_num_nodes()
  me = xmp_node_num()
  do k = 1, 3
    s = 0
    select case (k)
    case (1)
!$xmp task on p(1)
      s = 10
!$xmp end task
!$xmp reduction(+:s)
      if (s /= 10) err = err + 1
    case (2)
!$xmp task on p(nn)
      s = me
!$xmp end task
!$xmp bcast (s) from p(nn)
      if (s /= nn) err = err + 1
    case default
      s = 1
!$xmp reduction(+:s)
      if (s /= nn) err = err + 1
    end select
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program task_select
