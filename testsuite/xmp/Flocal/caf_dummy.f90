! xmpc-test: np=2,4
! coarray dummy arguments (explicit shape and assumed shape), coindexed access and
! sync all inside the procedure
module halo_ops
  implicit none
contains
  subroutine shift_right(x, n)
    integer, intent(in) :: n
    integer :: x(n)[*]
    integer :: nxt, tmp(n)
    nxt = mod(this_image(), num_images()) + 1
    tmp = x
    sync all
    x(:)[nxt] = tmp
    sync all
  end subroutine shift_right
  integer function peek(y, img, k)
    integer :: y(:)[*]
    integer, intent(in) :: img, k
    peek = y(k)[img]
  end function peek
end module halo_ops

program caf_dummy
  use halo_ops
  implicit none
  integer :: v(5)[*], me, np, k, src
  me = this_image()
  np = num_images()
  v = [(me * 10 + k, k = 1, 5)]
  call shift_right(v, 5)
  src = mod(me - 2 + np, np) + 1
  if (any(v /= [(src * 10 + k, k = 1, 5)])) then
    print *, 'ERROR line 34: v', me, v
    error stop 1
  end if
  sync all
  if (peek(v, np, 3) /= 10 * (np - 1) + 3) then
    print *, 'ERROR line 39: peek', me, peek(v, np, 3)
    error stop 1
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_dummy
