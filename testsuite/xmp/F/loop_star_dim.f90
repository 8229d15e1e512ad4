! xmpc-test: np=1,2,4
! A loop level over a template dimension that is not distributed (`*`) keeps the DO
! as written when a level around it runs over a distributed one
! (passes/src/xmp_model/loop_sched.rs, `keeps_own_bounds`): every iteration still
! runs exactly once over all nodes (literal and run-time bounds, a step, an aligned
! offset), and a process outside the template's node set runs none
! (t2 onto q = p(1:1): the enclosing block level is empty there).
program loop_star_dim
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: nx = 9, ny = 12
  integer :: i, j, hi, me, err
  integer(8) :: c1, s1, c2, s2, c3, s3, c4, w1, w2, w3
!$xmp nodes p(*)
!$xmp nodes q(1) = p(1:1)
!$xmp template t(nx, ny)
!$xmp distribute t(*, block) onto p
!$xmp template t2(0:nx, ny)
!$xmp distribute t2(*, block) onto q
  me = xmp_node_num()
  hi = nx - 1 + command_argument_count() / 99   ! a bound the compiler cannot know
  c1 = 0; s1 = 0; c2 = 0; s2 = 0; c3 = 0; s3 = 0; c4 = 0; err = 0
!$xmp loop (i, j) on t(i, j) reduction(+:c1, s1)
  do j = 1, ny
    do i = 2, nx - 1
      c1 = c1 + 1
      s1 = s1 + 100 * j + i
    end do
  end do
!$xmp loop (i, j) on t(i, j) reduction(+:c2, s2)
  do j = 2, ny - 1
    do i = 1, hi, 2
      c2 = c2 + 1
      s2 = s2 + 100 * j + i
    end do
  end do
  ! i + 1 on t2: template index 1..nx-1 for i = 0..nx-2
!$xmp loop (i, j) on t2(i + 1, j) reduction(+:c3, s3)
  do j = 1, ny
    do 10 i = 0, nx - 2
      c3 = c3 + 1
      s3 = s3 + 100 * j + i
10  continue
  end do
  ! only q's node runs t2's iterations
!$xmp loop (i, j) on t2(i, j)
  do j = 1, ny
    do i = 0, nx
      c4 = c4 + 1
    end do
  end do
  w1 = 0; w2 = 0; w3 = 0
  do j = 1, ny
    do i = 2, nx - 1
      w1 = w1 + 100 * j + i
    end do
  end do
  do j = 2, ny - 1
    do i = 1, nx - 1, 2
      w2 = w2 + 100 * j + i
    end do
  end do
  do j = 1, ny
    do i = 0, nx - 2
      w3 = w3 + 100 * j + i
    end do
  end do
  if (c1 /= ny * (nx - 2) .or. s1 /= w1) err = err + 1
  if (c2 /= (ny - 2) * ((nx - 2) / 2 + 1) .or. s2 /= w2) err = err + 1
  if (me == 1 .and. c4 /= ny * (nx + 1)) err = err + 1
  ! t2's loop reduction ran on q alone: the others kept 0, so a sum over all nodes
  ! counts every iteration once only if nobody else ran any
!$xmp reduction(+:c3, s3)
  if (c3 /= ny * (nx - 1) .or. s3 /= w3) err = err + 1
  if (me /= 1 .and. c4 /= 0) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', me, c1, s1, c2, s2, c3, s3, c4
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program loop_star_dim
