! procedures of include_contains.F90, brought in after its `contains` lines
  subroutine bump(x)
    integer :: x
    x = x + 1
  end subroutine bump

  integer function total(a, n)
    integer :: n
    integer :: a(n)
    total = sum(a)
  end function total
