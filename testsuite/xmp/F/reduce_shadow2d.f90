! xmpc-test: np=2,4
! reduce_shadow on a (block, block) distribution: each element scatters into its
! 3x3 neighbourhood, so corner shadows travel to the diagonal neighbour; complex
! elements. Checked against a serial recomputation of the neighbourhood sums.
program reduce_shadow2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 9, m = 7
  integer :: i, j, di, dj, err
  complex(8) :: a(n, m), want
!$xmp nodes p(2, *)
!$xmp template t(n, m)
!$xmp distribute t(block, block) onto p
!$xmp align a(i, j) with t(i, j)
!$xmp shadow a(1:1, 1:1)
!$xmp loop (i, j) on t(i, j)
  do j = 1, m
    do i = 1, n
      do dj = -1, 1
        do di = -1, 1
          a(i + di, j + dj) = a(i + di, j + dj) + v(i, j)
        end do
      end do
    end do
  end do
!$xmp reduce_shadow (a)
  err = 0
!$xmp loop (i, j) on t(i, j) reduction(+: err)
  do j = 1, m
    do i = 1, n
      want = 0
      do dj = -1, 1
        do di = -1, 1
          if (i + di >= 1 .and. i + di <= n .and. j + dj >= 1 .and. j + dj <= m) want = want + v(i + di, j + dj)
        end do
      end do
      if (a(i, j) /= want) err = err + 1
    end do
  end do
  if (err /= 0) then
    print *, 'ERROR', xmp_node_num(), err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  complex(8) function v(i, j)
    integer, intent(in) :: i, j
    v = cmplx(i + 16 * j, i * j, 8)
  end function v
end program reduce_shadow2d
