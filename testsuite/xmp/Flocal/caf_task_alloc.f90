! xmpc-test: np=4
! Coarrays allocated inside a `task` (as in Omni, MIX/alloc_subnodes2): the coarray is
! the task's, its images the task's nodes (a window over the task's communicator), and
! it is deallocated in the task. Two tasks on overlapping node sets, each allocating
! in a loop (also in a procedure called from the task), and a whole-program coarray
! read from inside the tasks; Omni's allocated-bytes counter is back where it was.
program caf_task_alloc
  implicit none
  include 'xmp_lib.h'
!$xmp nodes p(4)
  integer, allocatable :: c(:)[:], d(:,:)[:]
  integer :: w[*], me0, it, k, n, v, b0
  integer, external :: xmpf_coarray_allocated_bytes
  me0 = xmp_node_num()
  b0 = xmpf_coarray_allocated_bytes()
  w = 1000 * me0
  sync all
  do it = 1, 3
!$xmp task on p(2:4)
    k = this_image()
    n = num_images()
    allocate(c(5)[*], d(2, 3)[*])
    c = 10 * k + it
    d = -k
    sync all
    v = c(mod(k, n) + 1)[mod(k, n) + 1]
    if (v /= 10 * (mod(k, n) + 1) + it) call fail(27, v, 10 * (mod(k, n) + 1) + it)
    d(2, 3)[1] = 0
    if (w[1] /= 2000) call fail(29, w[1], 2000)
    sync all
    if (k == 1 .and. d(2, 3) /= 0) call fail(31, d(2, 3), 0)
    if (k /= 1 .and. d(2, 3) /= -k) call fail(32, d(2, 3), -k)
    deallocate(c, d)
!$xmp end task
!$xmp task on p(1:2)
    call in_proc(it)
!$xmp end task
  end do
  sync all
  if (xmpf_coarray_allocated_bytes() /= b0) call fail(40, xmpf_coarray_allocated_bytes(), b0)
  if (me0 == 1) print '(a)', 'PASS'
contains
  subroutine in_proc(it)
    integer, intent(in) :: it
    integer, allocatable :: e(:)[:]
    allocate(e(4)[*])
    e = this_image() + it
    sync all
    if (e(4)[3 - this_image()] /= 3 - this_image() + it) call fail(49, e(4)[3 - this_image()], 3 - this_image() + it)
    sync all
    deallocate(e)
  end subroutine in_proc
  subroutine fail(line, got, want)
    integer, intent(in) :: line, got, want
    print '(a, i0, a, i0, a, i0, a, i0)', 'ERROR line ', line, ' on node ', me0, ': got ', got, ', want ', want
    error stop 1
  end subroutine fail
end program caf_task_alloc
