! xmpc-test: np=2,4
! shadow a(*, *) on cyclic(2) and cyclic dimensions (Omni's shadow-reflect/full2):
! after reflect every node holds the whole array
program shadow_full_cyclic
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 6, m = 10
  integer :: a(m, n), i, j, err
!$xmp nodes p(2, *)
!$xmp template t(m, n)
!$xmp distribute t(cyclic(2), cyclic) onto p
!$xmp align a(i, j) with t(i, j)
!$xmp shadow a(*, *)
!$xmp loop (i, j) on t(i, j)
  do j = 1, n
    do i = 1, m
      a(i, j) = j * 100 + i
    end do
  end do
!$xmp reflect (a)
  err = 0
  do j = 1, n
    do i = 1, m
      if (a(i, j) /= j * 100 + i) err = err + 1
    end do
  end do
!$xmp reduction (+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    call exit(1)
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program
