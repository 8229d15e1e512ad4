! xmpc-test: np=1,2,4
! co_broadcast of a scalar, an array and a derived-type value from the last image
program caf_cobcast
  implicit none
  type pair
    integer :: k
    real(8) :: w
  end type pair
  integer :: me, np, s, a(4)
  type(pair) :: p
  me = this_image()
  np = num_images()
  s = me * 11
  a = me
  p = pair(me, 1d0 * me)
  call co_broadcast(s, source_image=np)
  call co_broadcast(a, np)
  call co_broadcast(p, source_image=np)
  if (s /= 11 * np .or. any(a /= np) .or. p%k /= np .or. p%w /= np) then
    print *, 'ERROR line 20: bcast', me, s, a, p%k, p%w
    error stop 1
  end if
  if (me == 1) print *, 'PASS'
end program caf_cobcast
