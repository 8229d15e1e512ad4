! xmpc-test: np=2,4
! reduce_shadow on a (block, block) distribution: each element scatters into its
! 3x3 neighbourhood; as in Omni, what lands in a corner shadow (an element of the
! diagonal neighbour) is not reduced; complex elements. Checked against a serial recomputation of the neighbourhood sums.
program reduce_shadow2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 9, m = 7
  integer :: i, j, di, dj, err, by
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
  ! block sizes of t over p(2, np/2): 5 along i, ceiling(m / (np/2)) along j
  by = (m + xmp_num_nodes() / 2 - 1) / (xmp_num_nodes() / 2)
  err = 0
!$xmp loop (i, j) on t(i, j) reduction(+: err)
  do j = 1, m
    do i = 1, n
      want = 0
      do dj = -1, 1
        do di = -1, 1
          if (i + di >= 1 .and. i + di <= n .and. j + dj >= 1 .and. j + dj <= m) then
            if ((i - 1) / 5 == (i + di - 1) / 5 .or. (j - 1) / by == (j + dj - 1) / by) want = want + v(i + di, j + dj)
          end if
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
