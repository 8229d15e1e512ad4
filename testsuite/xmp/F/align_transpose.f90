! xmpc-test: np=2,4
! align a(i, j) with t(j, i): the array's dims map to the template's in reverse
program align_transpose
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 6, m = 8
  integer :: i, j, err
  integer :: a(n, m)
!$xmp nodes p(2, *)
!$xmp template t(m, n)
!$xmp distribute t(block, block) onto p
!$xmp align a(i, j) with t(j, i)
!$xmp shadow a(1:1, 0)
  err = 0
!$xmp loop (j, i) on t(j, i)
  do j = 1, m
    do i = 1, n
      a(i, j) = 10 * i + j
    end do
  end do
!$xmp reflect (a)
!$xmp loop (j, i) on t(j, i) reduction(+:err)
  do j = 1, m
    do i = 2, n - 1
      if (a(i - 1, j) /= 10 * (i - 1) + j .or. a(i + 1, j) /= 10 * (i + 1) + j) err = err + 1
    end do
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program align_transpose
