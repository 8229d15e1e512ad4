! xmpc-test: np=1,2,3,4
! a subroutine with local aligned arrays (2-D with a periodic reflect, gmove to
! another distribution, an allocatable one, an assumed-shape dummy) called 3000
! times, leaving by `return` (one-line `if` and `if` block) on some calls: the
! runtime's descriptors, reflect plans and their MPI windows are freed at every
! exit (without that, MPI runs out of windows/communicators after ~2000 calls).
! On more than 2 nodes only 20 calls: each call creates and frees a shared-memory
! window (a few collectives), ~100 ms per call when MPI oversubscribes the cores.
program proc_locals
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: ny = 16
  integer :: k, j, ncalls
  real(8) :: g(ny), s, want
!$xmp nodes p(*)
!$xmp template tg(ny)
!$xmp distribute tg(block) onto p
!$xmp align g(j) with tg(j)
!$xmp shadow g(1)
!$xmp loop on tg(j)
  do j = 1, ny
    g(j) = j
  end do
  s = 0
  want = 0
  ncalls = merge(3000, 20, xmp_all_num_nodes() <= 2)
  do k = 1, ncalls
    call step(k, g, s)
    want = want + expect(k)
  end do
  if (abs(s - want) <= 1d-6 * abs(want)) then
    if (xmp_node_num() == 1) print *, 'PASS'
  else
    print *, 'ERROR', s, want
  end if
contains
  subroutine step(k, g, s)
    integer, intent(in) :: k
    real(8) :: g(:)
    real(8), intent(inout) :: s
    integer, parameter :: nx = 6, ny = 16
    real(8) :: a(nx, ny), b(nx, ny)
    real(8), allocatable :: w(:)
    real(8) :: t
    integer :: i, j
!$xmp nodes q(*)
!$xmp template tc(ny)
!$xmp template tr(nx)
!$xmp template th(ny)
!$xmp distribute tc(block) onto q
!$xmp distribute tr(block) onto q
!$xmp distribute th(block) onto q
!$xmp align a(*, j) with tc(j)
!$xmp align b(i, *) with tr(i)
!$xmp align w(j) with tc(j)
!$xmp align g(j) with th(j)
!$xmp shadow a(0, 1)
!$xmp shadow g(1)
!$xmp loop on tc(j)
    do j = 1, ny
      do i = 1, nx
        a(i, j) = k + i + 10 * j
      end do
    end do
!$xmp reflect (a) width(0, /periodic/1:1)
    t = 0
!$xmp loop on tc(j) reduction(+: t)
    do j = 1, ny
      do i = 1, nx
        t = t + a(i, j - 1) + 2 * a(i, j + 1)
      end do
    end do
    s = s + t
    if (mod(k, 5) == 0) return
!$xmp gmove
    b(:, :) = a(1:nx, 1:ny)
    t = 0
!$xmp loop on tr(i) reduction(+: t)
    do i = 1, nx
      do j = 1, ny
        t = t + i * b(i, j)
      end do
    end do
    s = s + t
    if (mod(k, 3) == 0) then
      allocate(w(ny))
!$xmp loop on tc(j)
      do j = 1, ny
        w(j) = j * k
      end do
      t = 0
!$xmp loop on tc(j) reduction(+: t)
      do j = 1, ny
        t = t + w(j)
      end do
      s = s + t
      ! left allocated on odd k: freed at the exit
      if (mod(k, 2) == 0) deallocate(w)
      return
    end if
!$xmp reflect (g)
    t = 0
!$xmp loop on th(j) reduction(+: t)
    do j = 2, ny
      t = t + g(j - 1)
    end do
    s = s + t
  end subroutine step

  ! what step adds for k, computed serially
  real(8) function expect(k)
    integer, intent(in) :: k
    integer, parameter :: nx = 6, ny = 16
    integer :: i, j, jm, jp
    real(8) :: e
    e = 0
    do j = 1, ny
      jm = merge(ny, j - 1, j == 1)
      jp = merge(1, j + 1, j == ny)
      do i = 1, nx
        e = e + (k + i + 10 * jm) + 2 * (k + i + 10 * jp)
      end do
    end do
    if (mod(k, 5) /= 0) then
      do j = 1, ny
        do i = 1, nx
          e = e + i * (k + i + 10 * j)
        end do
      end do
      if (mod(k, 3) == 0) then
        e = e + k * ny * (ny + 1) / 2
      else
        e = e + (ny - 1) * ny / 2
      end if
    end if
    expect = e
  end function expect
end program proc_locals
