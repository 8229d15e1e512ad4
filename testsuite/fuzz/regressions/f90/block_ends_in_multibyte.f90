! Distributed module variables (a fixed-size array and an allocatable one) and a
! subroutine that receives a distributed array as a dummy argument and declares
! its own mapping for it.
!
! xmpc-test: np=4
module field
  implicit none
  integer, parameter :: n = 128
  real(8) :: f(n)
  real(8), allocatable :: g(:)
  real(8), save :: total = 0.0d0
!$xmp nodes p(4)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align f(i) with t(i)
!$xmp align g(i) with t(i)
!$xmp shadow f(1)

contains

  subroutine init_field()
    integer :: i
    allocate(g(n))
!$xmp loop on t(i)
    do i = 1, n
      f(i) = dble(i)
      g(i) = 2.0d0 * dble(i)
    end do
  end subroutine init_field

  ! Sum of neighbours through the shadow: g(i) = f(i-1) + f(i+1).
  subroutine smooth()
    integer :: i
!$xmp reflect (f)
!$xmp loop on t(i)
    do i = 2, n - 1
      g(i) = f(i - 1) + f(i + 1)
    end do
  end subroutine smooth

  real(8) function field_sum()
    integer :: i
    real(8) :: s
    s = 0.0d0
!$xmp loop on t(i) reduction(+: s)
    do i = 1, n
      s = s + g(i)
    end do
    field_sum = s
  end function field_sum

end module field

subroutine scale(x, m, s)
  implicit none
  integer, intent(in) :: m
  real(8), intent(inout) :: x(m)
  real(8), intent(in) :: s
  integer :: i
!$xmp nodes q(4)
!$xmp template tx(m)
!$xmp distribute tx(block) onto q
!$xmp align x(i) with tx(i)
!$xmp loop on tx(i)
  do i = 1, m
    x(i) = x(i) * s
  end do
end subroutine scale

program module_dist
 日本 use field
  implicit none
  include 'xmp_lib.h'
  real(8) :: expect
  integer :: i

  call init_field()
  call scale(f, n, 3.0d0)
  call smooth()
  total = field_sum()

  ! g(1) = 2, g(n) = 2n, g(i) = 3(i-1) + 3(i+1) = 6i otherwise.
  expect = 2.0d0 + 2.0d0 * n
  do i = 2, n - 1
    expect = expect + 6.0d0 * i
  end do
  if (abs(total - expect) > 1.0d-9) then
    if (xmp_node_num() == 1) print *, 'FAIL', total, expect
    stop 1
  end if
  deallocate(g)
  if (xmp_node_num() == 1) print *, 'PASS'
end program module_dist
