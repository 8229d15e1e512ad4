! xmpc-test: np=1,2,4,8
! atomic subroutines on coindexed and local atoms: atomic_add counter, tickets
! from atomic_fetch_add (all distinct), one winner of atomic_cas, bit sets with
! atomic_or / atomic_fetch_and / atomic_xor, atomic_define/atomic_ref
program caf_atomics
  use, intrinsic :: iso_fortran_env, only: atomic_int_kind
  implicit none
  integer(atomic_int_kind) :: cnt[*], tk[*], win[*], bits[*], old, v
  integer :: me, np, k, nerr, won, tsum
  me = this_image()
  np = num_images()
  nerr = 0
  call atomic_define(cnt, 0)
  call atomic_define(tk, 0)
  call atomic_define(win, 0)
  call atomic_define(bits, 0)
  sync all
  do k = 1, 10
    call atomic_add(cnt[1], me)
  end do
  tsum = 0
  do k = 1, 5
    call atomic_fetch_add(tk[np], 1, old)
    if (old < 0 .or. old >= 5 * np) call bad(24, int(old))
    tsum = tsum + int(old)
  end do
  call atomic_cas(win[1], old, 0, me)
  won = merge(1, 0, old == 0)
  call atomic_or(bits[1], ishft(1, me - 1))
  sync all
  ! distinct tickets: their sum is 0 + 1 + ... + (5 np - 1)
  call co_sum(tsum)
  if (tsum /= 5 * np * (5 * np - 1) / 2) call bad(33, tsum)
  call co_sum(won)
  if (won /= 1) call bad(35, won)
  if (me == 1) then
    call atomic_ref(v, cnt)
    if (v /= 10 * np * (np + 1) / 2) call bad(38, int(v))
    call atomic_ref(v, bits)
    if (v /= 2**np - 1) call bad(40, int(v))
    call atomic_ref(v, win)
    if (v < 1 .or. v > np) call bad(42, int(v))
  end if
  sync all
  ! every image clears its own bit on image 1: the last one sees only its bit
  call atomic_fetch_and(bits[1], not(ishft(1, me - 1)), old)
  if (iand(old, ishft(1, me - 1)) == 0) call bad(47, int(old))
  call atomic_xor(cnt[me], 5)
  sync all
  call atomic_ref(v, bits[1])
  if (v /= 0) call bad(51, int(v))
  call atomic_ref(v, cnt)
  if (me == 1 .and. v /= ieor(10 * np * (np + 1) / 2, 5)) call bad(53, int(v))
  if (me /= 1 .and. v /= 5) call bad(54, int(v))
  call atomic_define(tk[mod(me, np) + 1], me)
  sync all
  if (tk /= mod(me - 2 + np, np) + 1) call bad(57, int(tk))
  call co_sum(nerr)
  if (nerr /= 0) error stop 1
  if (me == 1) print *, 'PASS'
contains
  subroutine bad(line, val)
    integer, intent(in) :: line, val
    nerr = nerr + 1
    print *, 'ERROR line', line, ' image', me, ' value', val
  end subroutine bad
end program caf_atomics
