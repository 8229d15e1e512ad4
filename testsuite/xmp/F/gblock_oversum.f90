! xmpc-test: np=4
! a gblock mapping that sums to more than the template (Omni's intrinsic_transpose_FJ):
! cut at the template's end, as Omni (which warns); the later nodes own nothing
program gblock_oversum
  include 'xmp_lib.h'
  integer, parameter :: n = 10
  integer m(4), a(n), i, err, cnt
  data m /4, 7, 2, 3/
!$xmp nodes p(4)
!$xmp template t(n)
!$xmp distribute t(gblock(m)) onto p
!$xmp align a(i) with t(i)
  err = 0
  cnt = 0
!$xmp loop on t(i) reduction(+:cnt)
  do i = 1, n
    a(i) = i
    cnt = cnt + 1
  end do
  if (cnt /= n) err = err + 1
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n
    if (a(i) /= i) err = err + 1
    if (i <= 4 .and. xmp_node_num() /= 1) err = err + 1
    if (i > 4 .and. xmp_node_num() /= 2) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gblock_oversum
