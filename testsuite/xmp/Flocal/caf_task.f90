! xmpc-test: np=2,4
! coarrays inside XMP tasks (as in Omni, with xmpc's libcaf): in a task the images
! are the task's nodes. Two tasks, on the first and on the second half of the
! nodes, each check this_image/num_images, sync all, sync images, co_sum (also to
! result_image), co_max, co_broadcast and coindexed puts and gets among their own
! images; image k of the second task is node h+k. The halves run different numbers
! of image control statements, so a sync over the whole program would pair wrongly.
program caf_task
  implicit none
  include 'xmp_lib.h'
  integer :: me0, np0, h, off, k
  integer :: a(8)[*], b[*], node[*]
!$xmp nodes p(*)
  me0 = xmp_node_num()
  np0 = xmp_num_nodes()
  h = np0 / 2
  node = me0
  a = 0
  b = 0
  sync all
!$xmp task on p(1:h)
  if (this_image() /= me0 .or. num_images() /= h) then
    print *, 'ERROR line 23: first task', me0, this_image(), num_images()
    error stop 1
  end if
  call check(0, 2)
  sync all
!$xmp end task
!$xmp task on p(h+1:np0)
  if (this_image() /= me0 - h .or. num_images() /= h) then
    print *, 'ERROR line 31: second task', me0, this_image(), num_images()
    error stop 1
  end if
  call check(h, 3)
!$xmp end task
  ! back to the whole program
  if (this_image() /= me0 .or. num_images() /= np0) then
    print *, 'ERROR line 38: after the tasks', this_image(), num_images(), me0
    error stop 1
  end if
  sync all
  k = node[np0 + 1 - me0]
  if (k /= np0 + 1 - me0) then
    print *, 'ERROR line 44: whole-program get', me0, k
    error stop 1
  end if
  if (me0 == 1) print *, 'PASS'
contains
  ! the body of a task on nodes off+1 .. off+h; nsync: its number of sync alls
  subroutine check(off, nsync)
    integer, intent(in) :: off, nsync
    integer :: me, n, s, m, i, nb, v
    me = this_image()
    n = num_images()
    if (n /= h .or. me /= me0 - off) then
      print *, 'ERROR line 56: node', me0, 'image', me, 'of', n, 'expected', me0 - off, h
      error stop 1
    end if
    ! every image writes its node number into image 1's a(me)
    a(me)[1] = me0
    do i = 1, nsync
      sync all
    end do
    if (me == 1) then
      do i = 1, n
        if (a(i) /= off + i) then
          print *, 'ERROR line 67: a', i, a(i), off + i
          error stop 1
        end if
      end do
    end if
    ! gets: the next image's node number, and b put by the previous image
    nb = mod(me, n) + 1
    v = node[nb]
    if (v /= off + nb) then
      print *, 'ERROR line 76: node[', nb, '] =', v, 'expected', off + nb
      error stop 1
    end if
    b[nb] = 100 + me0
    sync images(*)
    if (b /= 100 + off + mod(me + n - 2, n) + 1) then
      print *, 'ERROR line 82: b', me0, b
      error stop 1
    end if
    if (me /= 1) sync images(1)
    if (me == 1) sync images(*)
    ! collectives over the task's images
    s = me0
    call co_sum(s)
    if (s /= h * off + h * (h + 1) / 2) then
      print *, 'ERROR line 91: co_sum', me0, s
      error stop 1
    end if
    s = me
    call co_sum(s, result_image=n)
    if (me == n .and. s /= n * (n + 1) / 2) then
      print *, 'ERROR line 97: co_sum result_image', me0, s
      error stop 1
    end if
    m = me0
    call co_max(m)
    if (m /= off + h) then
      print *, 'ERROR line 103: co_max', me0, m
      error stop 1
    end if
    m = 0
    if (me == n) m = 7000 + me0
    call co_broadcast(m, source_image=n)
    if (m /= 7000 + off + n) then
      print *, 'ERROR line 110: co_broadcast', me0, m
      error stop 1
    end if
    sync all
  end subroutine check
end program caf_task
