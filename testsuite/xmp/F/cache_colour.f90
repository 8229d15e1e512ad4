! xmpc-test: np=1,2
! Cache colours of distributed arrays (issue 22): 14 aligned arrays of 1 MiB (per
! node: 1 MiB / np) are Fortran allocatables; glibc would put each on its own
! page-aligned mmap, every one at the same address modulo 4 KiB, so a stencil over
! them maps the same element of each to one L1 set. The runtime serves them from
! the heap with a pad before each: every array must start 320 bytes (5 cache lines)
! further modulo 4 KiB than the one before, so the 14 fall on 14 different cache
! lines (all 14 on one line without the pads; before the pads were carved from the
! probed place, a1 and a2 shared a line at 1 process: 1792, 1808, 2128, ...). Each
! array is also written and its sum checked.
program cache_colour
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 131072
  real(8) :: a1(n), a2(n), a3(n), a4(n), a5(n), a6(n), a7(n), a8(n), a9(n), a10(n), a11(n), a12(n), a13(n), a14(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14
  integer(8) :: at(14)
  integer :: i, k, lines, bad, steps
  logical :: seen(0:63)
  real(8) :: s
  at = [loc(a1), loc(a2), loc(a3), loc(a4), loc(a5), loc(a6), loc(a7), loc(a8), loc(a9), loc(a10), loc(a11), &
        loc(a12), loc(a13), loc(a14)]
  seen = .false.
  do k = 1, 14
    seen(int(mod(at(k), 4096_8) / 64)) = .true.
  end do
  lines = count(seen)
  steps = 0
  do k = 2, 14
    if (modulo(at(k) - at(k - 1), 4096_8) == 320) steps = steps + 1
  end do
  bad = 0
  if (lines < 14 .or. steps < 13) then
    print *, 'ERROR: 14 arrays start on', lines, 'cache lines modulo 4 KiB,', steps, 'of 13 steps of 320 bytes:', &
      mod(at, 4096_8)
    bad = 1
  end if
!$xmp loop on t(i)
  do i = 1, n
    a1(i) = i
    a14(i) = 2 * i
  end do
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + a1(i) + a14(i)
  end do
  if (s /= 3d0 * n * (n + 1) / 2) then
    print *, 'ERROR: sum', s
    bad = 1
  end if
!$xmp reduction(max:bad)
  if (xmp_node_num() == 1 .and. bad == 0) print *, 'PASS'
end program cache_colour
