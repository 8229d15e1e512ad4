! xmpc-test: np=1,2,4
! loop options expand (clipped and /unbound/, negative widths) and peel_and_wait:
! each node counts and sums the indices it ran and checks them against its block
! (xmp_model::loop_sched, docs/omni-compat.md).
program loop_expand
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 16, m = 6
  integer :: a(n), b(m, n)
  integer :: i, j, lo, hi, err, cnt, sm, wc, ws, k, want
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp template t2(m, n)
!$xmp distribute t2(*, block) onto p
!$xmp align a(i) with t(i)
!$xmp shadow a(2)
!$xmp align b(j, i) with t2(j, i)
!$xmp shadow b(0, 1)
  err = 0
  lo = n + 1
  hi = 0
!$xmp loop on t(i)
  do i = 1, n
    lo = min(lo, i)
    hi = max(hi, i)
    a(i) = i
  end do

  ! clipped to the loop bounds
  cnt = 0
  sm = 0
!$xmp loop on t(i) expand(1)
  do i = 1, n
    cnt = cnt + 1
    sm = sm + i
  end do
  call span(max(lo - 1, 1), min(hi + 1, n), wc, ws)
  if (cnt /= wc .or. sm /= ws) err = err + 1

  ! unbound: into the shadow beyond the template
  cnt = 0
  sm = 0
!$xmp loop on t(i) expand(/unbound/2:1)
  do i = 1, n
    cnt = cnt + 1
    sm = sm + i
  end do
  call span(lo - 2, hi + 1, wc, ws)
  if (cnt /= wc .or. sm /= ws) err = err + 10

  ! a negative width shrinks the block
  cnt = 0
  sm = 0
!$xmp loop on t(i) expand(-1)
  do i = 1, n
    cnt = cnt + 1
    sm = sm + i
  end do
  call span(lo + 1, hi - 1, wc, ws)
  if (cnt /= wc .or. sm /= ws) err = err + 100

  ! 2-D, the first dimension not distributed
  cnt = 0
  sm = 0
!$xmp loop (j, i) on t2(j, i) expand(/unbound/1, 1)
  do i = 1, n
    do j = 1, m
      cnt = cnt + 1
      sm = sm + 100 * i + j
    end do
  end do
  wc = 0
  ws = 0
  do i = max(lo - 1, 1), min(hi + 1, n)
    do j = 0, m + 1
      wc = wc + 1
      ws = ws + 100 * i + j
    end do
  end do
  if (cnt /= wc .or. sm /= ws) err = err + 1000

  ! peel_and_wait: the owned iterations after the asynchronous reflect
!$xmp reflect (a) width(/periodic/1) async(7)
  cnt = 0
!$xmp loop on t(i) peel_and_wait(7, 1)
  do i = 1, n
    cnt = cnt + 1
    a(i) = a(i) + 1000
  end do
  if (cnt /= hi - lo + 1) err = err + 10000
  k = 0
!$xmp loop on t(i) expand(/unbound/1) reduction(+:k)
  do i = 1, n
    want = i + 1000
    if (i < lo .or. i > hi) want = modulo(i - 1, n) + 1
    if (a(i) /= want) k = k + 1
  end do
  if (k /= 0) err = err + 100000

!$xmp reduction(+:err)
  if (err /= 0) then
    write(*,*) 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) write(*,*) 'PASS'
contains
  subroutine span(l, h, c, s)
    integer, intent(in) :: l, h
    integer, intent(out) :: c, s
    integer :: x
    c = 0
    s = 0
    do x = l, h
      c = c + 1
      s = s + x
    end do
  end subroutine
end program
