! Coarray side of testsuite/bench/local/task.sh (xmpc's libcaf, 2 or more images):
! the same operations outside any task ("out") and inside a task on all the nodes
! ("in": the same images and ranks, reached through the task's image translation and
! communicator): 8-byte coindexed put and get from image 1 to image 2, co_sum of one
! double, sync all, this_image() (the image lookup alone). Prints
! `name-out microseconds-per-op` and `name-in ...`.
program caf_task_bench
  implicit none
  include 'xmp_lib.h'
  real(8) :: s8(1)[*], loc(1)
  integer :: np
!$xmp nodes p(*)
  np = num_images()
  s8 = this_image()
  loc = 7
  sync all
  call bench('out')
!$xmp task on p(1:np)
  call bench('in')
!$xmp end task
  call bench('out')
contains
  subroutine bench(tag)
    character(*), intent(in) :: tag
    integer, parameter :: reps = 20000
    integer :: k, me, i
    real(8) :: t0, t, x
    me = this_image()
    sync all
    t0 = xmp_wtime()
    if (me == 1) then
      do k = 1, reps
        s8(1:1)[2] = loc(1:1)
      end do
    end if
    sync all
    t = xmp_wtime() - t0
    if (me == 1) print '(a,1x,f12.3)', 'put_8B-' // tag, 1d6 * t / reps
    sync all
    t0 = xmp_wtime()
    if (me == 1) then
      do k = 1, reps
        loc(1:1) = s8(1:1)[2]
      end do
    end if
    sync all
    t = xmp_wtime() - t0
    if (me == 1 .and. loc(1) /= 7) error stop 4
    if (me == 1) print '(a,1x,f12.3)', 'get_8B-' // tag, 1d6 * t / reps
    sync all
    t0 = xmp_wtime()
    do k = 1, reps
      x = k
      call co_sum(x)
    end do
    t = xmp_wtime() - t0
    if (x /= dble(k - 1) * np) error stop 2
    if (me == 1) print '(a,1x,f12.3)', 'co_sum_8B-' // tag, 1d6 * t / reps
    sync all
    t0 = xmp_wtime()
    do k = 1, reps / 10
      sync all
    end do
    t = xmp_wtime() - t0
    if (me == 1) print '(a,1x,f12.3)', 'sync_all-' // tag, 1d6 * t / (reps / 10)
    t0 = xmp_wtime()
    k = 0
    do i = 1, 100 * reps
      k = k + this_image()
    end do
    t = xmp_wtime() - t0
    if (k /= 100 * reps * me) error stop 5
    if (me == 1) print '(a,1x,f12.3)', 'this_image-' // tag, 1d6 * t / (100 * reps)
  end subroutine bench
end program caf_task_bench
