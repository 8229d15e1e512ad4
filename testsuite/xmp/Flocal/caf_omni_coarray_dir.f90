! xmpc-test: np=4
! Omni's `coarray on NODES :: a` and `image(NODES)` directives (docs/local-view.md):
! a coarray of a `coarray` directive numbers its images as the node set's nodes
! whatever task runs (coindices and this_image(a[, dim]), 0 on a node outside the
! set); `image(q)` makes the next sync all, sync images or co_* call run among q's
! nodes with q's numbering. Without a directive the images are the executing task's.
program caf_omni_coarray_dir
  implicit none
  include 'xmp_lib.h'
!$xmp nodes p(4)
!$xmp nodes q(2)=p(3:4)
!$xmp nodes r(2,2)=p
  integer :: a[*], b(3)[2,*], c[*], d[*]
  integer :: me0, k, s, ti(2)
!$xmp coarray on q :: a
!$xmp coarray on r :: b
!$xmp coarray on p :: d
  me0 = xmp_node_num()
  a = 0
  b = 0
  c = 0
  d = 0
  ! outside any task: q's numbering for a, r's (2 x 2) for b
  k = 0
  if (me0 >= 3) k = me0 - 2
  if (this_image(a, 1) /= k) call fail(26, this_image(a, 1), k)
  ti = this_image(b)
  if (ti(1) /= mod(me0 - 1, 2) + 1 .or. ti(2) /= (me0 - 1) / 2 + 1) call fail(28, ti(1) * 10 + ti(2), me0)
  if (this_image(b, dim=2) /= (me0 - 1) / 2 + 1) call fail(29, this_image(b, 2), me0)
  sync all
!$xmp task on p(1:2)
  ! the task's images are p(1:2), but a[k] is q(k) = p(k+2) and d[k] is p(k)
  if (this_image() /= me0 .or. num_images() /= 2) call fail(33, this_image(), me0)
  if (this_image(a, 1) /= 0) call fail(34, this_image(a, 1), 0)
  a[this_image()] = 100 + me0
  c[3 - this_image()] = 200 + me0
  b(2)[2, 2] = 300
  sync all
!$xmp end task
!$xmp task on p(3:4)
  k = this_image()
  if (k /= me0 - 2 .or. this_image(a, 1) /= k) call fail(42, this_image(a, 1), k)
  d[k] = 400 + me0
  sync all
!$xmp end task
  sync all
  select case (me0)
  case (1)
    if (c /= 202 .or. d /= 403) call fail(49, c * 1000 + d, 202403)
  case (2)
    if (c /= 201 .or. d /= 404) call fail(51, c * 1000 + d, 201404)
  case (3)
    if (a /= 101 .or. c /= 0 .or. d /= 0) call fail(53, a, 101)
  case (4)
    if (a /= 102 .or. b(2) /= 300) call fail(55, a * 1000 + b(2), 102300)
  end select
  ! image(q): among p(3:4) only, with q's numbering
  s = me0
  if (me0 >= 3) then
!$xmp image(q)
    sync all
!$xmp image(q)
    call co_sum(s)
    if (s /= 7) call fail(64, s, 7)
    if (me0 == 3) then
!$xmp image(q)
      sync images(2)
    else
      sync images(3)
    end if
  end if
  if (me0 < 3 .and. s /= me0) call fail(72, s, me0)
  sync all
  if (me0 == 1) print '(a)', 'PASS'
contains
  subroutine fail(line, got, want)
    integer, intent(in) :: line, got, want
    print '(a, i0, a, i0, a, i0, a, i0)', 'ERROR line ', line, ' on node ', me0, ': got ', got, ', want ', want
    error stop 1
  end subroutine fail
end program caf_omni_coarray_dir
