! xmpc-test: np=1,2,4
! firstmax, firstmin, lastmax, lastmin without location variables act as max/min
program first_last
  implicit none
  include 'xmp_lib.h'
  integer :: a, b, c, d, np, err
!$xmp nodes p(*)
  np = xmp_num_nodes()
  a = xmp_node_num(); b = xmp_node_num(); c = -xmp_node_num(); d = -xmp_node_num()
!$xmp reduction(firstmax:a) reduction(firstmin:b)
!$xmp reduction(lastmax:c)
!$xmp reduction(lastmin:d)
  err = 0
  if (a /= np .or. b /= 1 .or. c /= -1 .or. d /= -np) err = 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', a, b, c, d
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program first_last
