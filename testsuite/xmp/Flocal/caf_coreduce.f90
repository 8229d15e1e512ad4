! xmpc-test: np=1,2,4
! co_reduce with user operations: a product and a "max of absolute values"
module red_ops
  implicit none
contains
  pure function mul(a, b) result(c)
    integer, intent(in) :: a, b
    integer :: c
    c = a * b
  end function mul
  pure function absmax(a, b) result(c)
    real(8), intent(in) :: a, b
    real(8) :: c
    c = max(abs(a), abs(b))
  end function absmax
end module red_ops

program caf_coreduce
  use red_ops
  implicit none
  integer :: me, np, f, i, want
  real(8) :: x
  me = this_image()
  np = num_images()
  f = me
  call co_reduce(f, mul)
  want = product([(i, i = 1, np)])
  if (f /= want) then
    print *, 'ERROR line 29: f', me, f, want
    error stop 1
  end if
  x = (-1d0) ** (me + 1) * me
  call co_reduce(x, absmax, result_image=1)
  if (me == 1 .and. x /= dble(np)) then
    print *, 'ERROR line 35: x', x
    error stop 1
  end if
  if (me == 1) print *, 'PASS'
end program caf_coreduce
