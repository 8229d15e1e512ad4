! xmpc-test: np=1,2,4
! barrier, barrier on p, and the library inquiry functions
program barrier
  implicit none
  include 'xmp_lib.h'
  integer :: err
  double precision :: t0, t1
!$xmp nodes p(*)
  err = 0
  t0 = xmp_wtime()
!$xmp barrier
!$xmp barrier on p
  t1 = xmp_wtime()
  if (t1 < t0) err = err + 1
  if (xmp_node_num() < 1 .or. xmp_node_num() > xmp_num_nodes()) err = err + 1
  if (xmp_all_num_nodes() /= xmp_num_nodes()) err = err + 1
  if (xmp_all_node_num() /= xmp_node_num()) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program barrier
