subroutine f(x, y)
  integer x, y
  y = 2
end subroutine
subroutine f(x)
  integer x
  x = 1
end subroutine
