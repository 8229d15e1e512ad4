! xmpc-test: np=1,2,3,4
! reduce_shadow: contributions a loop scattered into the shadows are added into
! their owners' elements; non-periodic (a shadow outside 1..n is dropped),
! periodic with async + wait_async, and an explicit width narrower than the shadow
program reduce_shadow
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 17
  integer :: i, err
  integer :: a(n), b(n)
  real(8) :: c(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: a, b, c
!$xmp shadow a(1:1)
!$xmp shadow b(1:1)
!$xmp shadow c(2:2)
  ! each element i adds 2i to itself, i to i-1 and 3i to i+1 (b: modulo n);
  ! c: 1 to itself and 1 to each of i-2 .. i+2
!$xmp loop on t(i)
  do i = 1, n
    a(i) = a(i) + 2 * i
    a(i - 1) = a(i - 1) + i
    a(i + 1) = a(i + 1) + 3 * i
    b(i) = b(i) + 2 * i
    b(i - 1) = b(i - 1) + i
    b(i + 1) = b(i + 1) + 3 * i
    c(i - 2 : i + 2) = c(i - 2 : i + 2) + 1
  end do
!$xmp reduce_shadow (a)
!$xmp reduce_shadow (b) width(/periodic/1:1) async(3)
!$xmp wait_async(3)
  ! width 1 of a 2-wide shadow: only the shadow element next to each block is added
!$xmp reduce_shadow (c) width(1:1)
  err = 0
!$xmp loop on t(i) reduction(+: err)
  do i = 1, n
    if (a(i) /= 2 * i + merge(i + 1, 0, i < n) + merge(3 * (i - 1), 0, i > 1)) err = err + 1
    if (b(i) /= 2 * i + (mod(i, n) + 1) + 3 * (mod(i - 2 + n, n) + 1)) err = err + 1
  end do
  ! c: element g gets 1 from each writer q in g-2..g+2 (within 1..n) on its own
  ! node, and from a writer on another node only when g is next to that node's block
!$xmp loop on t(i) reduction(+: err)
  do i = 1, n
    if (c(i) /= dble(writers(i))) err = err + 1
  end do
  if (err /= 0) then
    print *, 'ERROR', xmp_node_num(), err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  ! 0-based node owning global index g of t(block) over xmp_num_nodes() nodes
  integer function owner(g)
    integer, intent(in) :: g
    owner = (g - 1) / ((n + xmp_num_nodes() - 1) / xmp_num_nodes())
  end function owner
  integer function writers(g)
    integer, intent(in) :: g
    integer :: q, w, lq, hq
    w = (n + xmp_num_nodes() - 1) / xmp_num_nodes()
    writers = 0
    do q = max(1, g - 2), min(n, g + 2)
      lq = owner(q) * w + 1
      hq = min(n, lq + w - 1)
      if (owner(q) == owner(g) .or. g == lq - 1 .or. g == hq + 1) writers = writers + 1
    end do
  end function writers
end program reduce_shadow
