! Coarray side of testsuite/bench/local/fortran.sh (2 images): coindexed put and get
! of 8 B and 1 MiB from image 1 to image 2, co_sum of one double, and a 2-D halo
! exchange (two columns of a 1024 x 256 block per image, puts then sync all),
! and sync all alone. Each timed loop ends with the sync all that follows it.
! Prints `name microseconds-per-op`.
program caf_bench
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: big = 131072, nx = 1024, ny = 256
  real(8) :: s8(1)[*], b(big)[*], loc(big), x, t0, t
  real(8), allocatable :: u(:,:)[:]
  integer :: reps, k, me, np, left, right
  me = this_image()
  np = num_images()
  right = mod(me, np) + 1
  left = mod(me - 2 + np, np) + 1
  allocate(u(nx, 0:ny+1)[*])
  s8 = me
  b = me
  loc = 7
  u = me
  sync all
  call bench_put(1, 20000, 'put_8B')
  call bench_put(big, 200, 'put_1MiB')
  call bench_get(1, 20000, 'get_8B')
  call bench_get(big, 200, 'get_1MiB')
  ! co_sum
  reps = 20000
  sync all
  t0 = xmp_wtime()
  do k = 1, reps
    x = k
    call co_sum(x)
  end do
  t = xmp_wtime() - t0
  if (x /= dble(reps) * np) error stop 2
  if (me == 1) print '(a,1x,f12.3)', 'co_sum_8B', 1d6 * t / reps
  ! sync all alone
  reps = 2000
  sync all
  t0 = xmp_wtime()
  do k = 1, reps
    sync all
  end do
  t = xmp_wtime() - t0
  if (me == 1) print '(a,1x,f12.3)', 'sync_all', 1d6 * t / reps
  ! halo
  reps = 500
  sync all
  t0 = xmp_wtime()
  do k = 1, reps
    u(:, 0)[right] = u(:, ny)
    u(:, ny + 1)[left] = u(:, 1)
    sync all
  end do
  t = xmp_wtime() - t0
  if (u(1, 0) /= left) error stop 3
  if (me == 1) print '(a,1x,f12.3)', 'halo_2x8KiB', 1d6 * t / reps
contains
  subroutine bench_put(n, reps, name)
    integer, intent(in) :: n, reps
    character(*), intent(in) :: name
    integer :: k
    real(8) :: t0, t
    sync all
    t0 = xmp_wtime()
    if (me == 1) then
      do k = 1, reps
        if (n == 1) then
          s8(1:1)[2] = loc(1:1)
        else
          b(:)[2] = loc
        end if
      end do
    end if
    ! the closing sync all is timed: a put may complete at the target only there
    sync all
    t = xmp_wtime() - t0
    if (me == 1) print '(a,1x,f12.3)', name, 1d6 * t / reps
  end subroutine bench_put
  subroutine bench_get(n, reps, name)
    integer, intent(in) :: n, reps
    character(*), intent(in) :: name
    integer :: k
    real(8) :: t0, t
    sync all
    t0 = xmp_wtime()
    if (me == 1) then
      do k = 1, reps
        if (n == 1) then
          loc(1:1) = s8(1:1)[2]
        else
          loc = b(:)[2]
        end if
      end do
    end if
    sync all
    t = xmp_wtime() - t0
    if (me == 1 .and. loc(1) /= 7) error stop 4
    if (me == 1) print '(a,1x,f12.3)', name, 1d6 * t / reps
  end subroutine bench_get
end program caf_bench
