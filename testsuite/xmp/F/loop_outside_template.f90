! xmpc-test: np=1,2,4
! Loop ranges that leave the template (Omni's behaviour, docs/omni-compat.md): an index
! outside the template belongs to no node and its iteration is skipped; a range partly
! outside runs the indices inside on their owners, on the loop's step grid.
program loop_outside_template
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16
  integer :: i, lo, me, err
  integer(8) :: c1, c2, s2, c3, s3, w2, n2
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
  me = xmp_node_num()
  lo = -command_argument_count() / 99   ! 0, a bound the compiler cannot know
  c1 = 0; c2 = 0; s2 = 0; c3 = 0; s3 = 0; err = 0
!$xmp loop (i) on t(i) reduction(+:c1)
  do i = lo, lo
    c1 = c1 + 1
  end do
!$xmp loop (i) on t(i) reduction(+:c2, s2)
  do i = lo - 4, n + 5, 3
    c2 = c2 + 1
    s2 = s2 + i
  end do
!$xmp loop (i) on t(i) reduction(+:c3, s3)
  do i = n + 3, -3, -1
    c3 = c3 + 1
    s3 = s3 + i
  end do
  w2 = 0; n2 = 0
  do i = -4, n + 5, 3
    if (i >= 1 .and. i <= n) then
      n2 = n2 + 1
      w2 = w2 + i
    end if
  end do
  if (c1 /= 0) err = err + 1
  if (c2 /= n2 .or. s2 /= w2) err = err + 1
  if (c3 /= n .or. s3 /= n * (n + 1) / 2) err = err + 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', me, c1, c2, s2, c3, s3
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program
