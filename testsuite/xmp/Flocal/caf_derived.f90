! xmpc-test: np=2,4
! derived-type coarrays: whole-object and component gets and puts
program caf_derived
  implicit none
  type particle
    real(8) :: x(3)
    integer :: id
  end type particle
  type(particle) :: p[*], q
  type(particle), allocatable :: ps(:)[:]
  integer :: me, np, nxt, i
  me = this_image()
  np = num_images()
  nxt = mod(me, np) + 1
  p%x = [1d0, 2d0, 3d0] * me
  p%id = me
  allocate(ps(4)[*])
  do i = 1, 4
    ps(i)%id = 10 * me + i
    ps(i)%x = i
  end do
  sync all
  q = p[nxt]
  if (q%id /= nxt .or. any(q%x /= [1d0, 2d0, 3d0] * nxt)) then
    print *, 'ERROR line 24: q', me, q%id, q%x
    error stop 1
  end if
  if (p[nxt]%id /= nxt .or. p[nxt]%x(2) /= 2d0 * nxt) then
    print *, 'ERROR line 28: component get', me
    error stop 1
  end if
  if (ps(3)[nxt]%id /= 10 * nxt + 3) then
    print *, 'ERROR line 32: ps', me, ps(3)[nxt]%id
    error stop 1
  end if
  sync all
  p[nxt]%id = -me
  sync all
  if (p%id /= -(mod(me - 2 + np, np) + 1) .or. p%x(1) /= me) then
    print *, 'ERROR line 39: component put', me, p%id
    error stop 1
  end if
  if (me == 1) print *, 'PASS'
end program caf_derived
