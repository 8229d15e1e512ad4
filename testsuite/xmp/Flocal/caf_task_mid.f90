! xmpc-test: np=4
! a task on nodes 2:3 of 4: its images 1 and 2 are nodes 2 and 3, so image numbers
! differ from node numbers. Inside: this_image/num_images, sync all, co_sum and
! coindexed puts and gets (also of an array section) among the task's images,
! while nodes 1 and 4, outside the task, exchange with each other over the whole
! program's images. After the task every node checks what the others wrote.
program caf_task_mid
  implicit none
  include 'xmp_lib.h'
  integer :: me0, me, n, s, v, w(3)
  integer :: a(3)[*], c[*]
!$xmp nodes p(4)
  me0 = xmp_node_num()
  a = [me0, 10 * me0, 100 * me0]
  c = 0
  sync all
!$xmp task on p(2:3)
  me = this_image()
  n = num_images()
  if (n /= 2 .or. me /= me0 - 1) then
    print *, 'ERROR line 21: node', me0, 'image', me, 'of', n
    error stop 1
  end if
  ! image 3 - me is the other node of the task (node 5 - me0)
  w = a(:)[3 - me]
  if (any(w /= [5 - me0, 10 * (5 - me0), 100 * (5 - me0)])) then
    print *, 'ERROR line 27: get', me0, w
    error stop 1
  end if
  c[3 - me] = 1000 + me0
  a(2)[me] = -me0
  sync all
  if (c /= 1000 + 5 - me0 .or. a(2) /= -me0) then
    print *, 'ERROR line 34: put', me0, c, a(2)
    error stop 1
  end if
  s = me0
  call co_sum(s)
  if (s /= 5) then
    print *, 'ERROR line 40: co_sum', me0, s
    error stop 1
  end if
  sync all
!$xmp end task
  if (me0 == 1 .or. me0 == 4) then
    ! outside the task: the whole program's images, image = node
    if (this_image() /= me0 .or. num_images() /= 4) then
      print *, 'ERROR line 48: outside the task', me0, this_image(), num_images()
      error stop 1
    end if
    c[5 - me0] = 2000 + me0
  end if
  sync all
  v = 0
  if (me0 == 1 .or. me0 == 4) v = 2000 + 5 - me0
  if (me0 == 2 .or. me0 == 3) v = 1000 + 5 - me0
  if (c /= v) then
    print *, 'ERROR line 58: c', me0, c, v
    error stop 1
  end if
  ! every node reads node 3's a(2), written inside the task
  v = a(2)[3]
  if (v /= -3) then
    print *, 'ERROR line 64: a(2)[3]', me0, v
    error stop 1
  end if
  if (me0 == 1) print *, 'PASS'
end program caf_task_mid
