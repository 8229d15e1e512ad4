! xmpc-test: np=1,2,4
! local_alias of an aligned array as a coarray (Omni's align/F/local_alias*): x(0:)[*]
! is a's local block, shadows included, on every image; a periodic halo exchange
! written with coindexed puts matches reflect's
program local_alias_coarray
  include 'xmp_lib.h'
  integer, parameter :: n = 16
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
  integer :: a(n)
!$xmp align a(i) with t(i)
!$xmp shadow a(1)
  integer :: x(0:)[*]
!$xmp local_alias x => a
  integer :: b(n)
!$xmp align b(i) with t(i)
!$xmp shadow b(1)
  integer :: i, w, me, np, left, right, err
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = 10 * i
    b(i) = 10 * i
  end do
  me = this_image()
  np = num_images()
  w = n / np
  left = mod(me - 2 + np, np) + 1
  right = mod(me, np) + 1
  if (size(x) /= w + 2 .or. lbound(x, 1) /= 0) err = err + 1
  if (x(1) /= 10 * ((me - 1) * w + 1)) err = err + 1
  sync all
  x(w + 1)[left] = x(1)
  x(0)[right] = x(w)
  sync all
!$xmp reflect (b) width(/periodic/1)
  if (x(0) /= 10 * (mod((me - 1) * w - 1 + n, n) + 1)) err = err + 1
!$xmp loop on t(i) reduction(+:err)
  do i = 1, n
    if (a(i-1) /= b(i-1) .or. a(i+1) /= b(i+1)) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program
