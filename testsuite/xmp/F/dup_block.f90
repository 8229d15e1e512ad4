! xmpc-test: np=1,2,4
! template t(*, block): the first dimension is not distributed
program dup_block
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 5, m = 16
  integer :: i, j, err, cnt
  integer :: a(n, m)
!$xmp nodes p(*)
!$xmp template t(n, m)
!$xmp distribute t(*, block) onto p
!$xmp align a(i, j) with t(i, j)
  err = 0
  cnt = 0
!$xmp loop (i, j) on t(i, j)
  do j = 1, m
    do i = 1, n
      a(i, j) = i * j
      cnt = cnt + 1
    end do
  end do
!$xmp loop (j) on t(:, j)
  do j = 1, m
    do i = 1, n
      if (a(i, j) /= i * j) err = err + 1
    end do
  end do
!$xmp reduction(+:cnt, err)
  if (err /= 0 .or. cnt /= n * m) then
    print *, 'ERROR', err, cnt
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program dup_block
