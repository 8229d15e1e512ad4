! xmpc-test: np=1,2,4 flags=-fopenmp
! `loop` over `!$omp parallel do` (global view + OpenMP): the schedule call goes
! before the OpenMP directive, the loop's reduction after `!$omp end parallel do`
program omp_loop
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 37
  integer :: i, j, err
  integer(8) :: s
  real(8) :: a(n, n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(*, j) with t(j)
  err = 0
!$xmp loop on t(j)
!$omp parallel do private(i)
  do j = 1, n
    do i = 1, n
      a(i, j) = i + 100 * j
    end do
  end do
!$omp end parallel do
  s = 0
!$xmp loop on t(j) reduction(+:s)
!$omp parallel do private(i) &
!$omp reduction(+:s)
  do j = 1, n
    do i = 1, n
      s = s + int(a(i, j), 8)
    end do
  end do
!$omp end parallel do
  if (s /= int(n, 8) * (n * (n + 1) / 2) + 100_8 * n * (n * (n + 1) / 2)) err = 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program omp_loop
