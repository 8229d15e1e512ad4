! xmpc-test: np=2,3,4
! A loop over a cyclic(w) dimension whose start is inside a block, or whose step does
! not divide nodes * w, needs several chunk sets (as in C, xmpc_loop_sched_multi);
! Omni's loop/315_loop.f90 and gmove_cp_*.f90 have such loops. Every index is run by
! exactly one node, and each node runs only indices it owns.
program cyclic_w_sets
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 40
  integer :: a(n), hits(n)
  integer :: i, err, s, lo
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(cyclic(3)) onto p
!$xmp align a(i) with t(i)
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  do s = 1, 4
    do lo = 1, 5
      hits = 0
!$xmp loop on t(i)
      do i = lo, n, s
        if (a(i) /= i) err = err + 1
        hits(i) = hits(i) + 1
      end do
!$xmp reduction(+:hits)
      do i = 1, n
        if (i >= lo .and. mod(i - lo, s) == 0) then
          if (hits(i) /= 1) err = err + 1
        else
          if (hits(i) /= 0) err = err + 1
        end if
      end do
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', xmp_node_num(), err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program cyclic_w_sets
