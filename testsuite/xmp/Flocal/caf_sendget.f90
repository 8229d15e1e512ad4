! xmpc-test: np=2,3,4
! both sides coindexed (a(:)[j] = b(:)[k], contiguous and strided), and gets and
! puts that convert kinds: a real(8) coarray read into real(4), integer(4) put into
! an integer(8) coarray and read back, integer values put into a real(8) coarray;
! repeated puts to one element then a get of it
program caf_sendget
  implicit none
  integer, parameter :: n = 6
  integer :: a(n)[*], b(2 * n)[*], me, np, nx, pv, nn, i, nerr
  real(8) :: d(n)[*]
  real(4) :: r4(n), x4
  integer(8) :: i8(n)[*]
  integer(4) :: i4(n)
  me = this_image()
  np = num_images()
  nx = mod(me, np) + 1
  pv = mod(me - 2 + np, np) + 1
  nn = mod(nx, np) + 1
  nerr = 0
  a = 0
  b = [(1000 * me + i, i = 1, 2 * n)]
  d = [(me + 0.5d0 * i, i = 1, n)]
  i8 = -1
  sync all
  ! my a is written by my right neighbour, with b of its right neighbour
  a(:)[pv] = b(1:n)[nx]
  sync all
  do i = 1, n
    call check(a(i) == 1000 * nn + i, 30, i)
  end do
  sync all
  a(1:n:2)[pv] = b(2:2 * n:4)[nx]
  sync all
  do i = 1, n
    if (mod(i, 2) == 1) then
      call check(a(i) == 1000 * nn + 2 + 4 * (i / 2), 36, i)
    else
      call check(a(i) == 1000 * nn + i, 38, i)
    end if
  end do
  ! kind conversions
  r4 = d(:)[nx]
  do i = 1, n
    call check(r4(i) == real(nx + 0.5d0 * i, 4), 44, i)
  end do
  x4 = d(3)[nx]
  call check(x4 == real(nx + 1.5d0, 4), 47, 0)
  i4 = [(10 * me + i, i = 1, n)]
  i8(:)[nx] = i4
  sync all
  do i = 1, n
    call check(i8(i) == 10_8 * pv + i, 53, i)
  end do
  i4 = 0
  i4(2:n) = i8(2:n)[pv]
  call check(i4(1) == 0, 57, 1)
  do i = 2, n
    call check(i4(i) == 10 * mod(pv - 2 + np, np) + 10 + i, 59, i)
  end do
  sync all
  d(1:3)[nx] = [(me * 100 + i, i = 1, 3)]
  sync all
  do i = 1, 3
    call check(d(i) == dble(pv * 100 + i), 65, i)
  end do
  call check(d(4) == me + 2.0d0, 67, 4)
  ! many puts to one element, then a get of it: the last put is read back, and seen
  ! by its image after sync all
  sync all
  do i = 1, 50
    a(2)[nx] = i
  end do
  i = a(2)[nx]
  call check(i == 50, 75, 2)
  sync all
  call check(a(2) == 50, 77, 2)
  sync all
  call co_sum(nerr)
  if (nerr /= 0) error stop 1
  if (me == 1) print *, 'PASS'
contains
  subroutine check(ok, line, i)
    logical, intent(in) :: ok
    integer, intent(in) :: line, i
    if (.not. ok) then
      nerr = nerr + 1
      print *, 'ERROR line', line, ' image', me, ' index', i
    end if
  end subroutine check
end program caf_sendget
