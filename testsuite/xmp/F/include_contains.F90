! xmpc-test: np=1,2
! procedures `#include`d after `contains`: the module's init procedure and a
! procedure's array frees must not add a second `contains` nor land after them
module include_contains_m
  implicit none
!$xmp nodes p(*)
  integer :: g = 5
contains
#include "inc/include_contains.h"
end module include_contains_m

module include_contains_w
  use include_contains_m
  implicit none
contains
  subroutine work(err)
    integer :: err
    integer, parameter :: n = 16
    integer :: i, s
    integer :: a(n)
!$xmp nodes q(*)
!$xmp template t(n)
!$xmp distribute t(block) onto q
!$xmp align a(i) with t(i)
!$xmp loop on t(i)
    do i = 1, n
      a(i) = i
    end do
    s = 0
!$xmp loop on t(i) reduction(+:s)
    do i = 1, n
      s = s + a(i)
    end do
    if (s /= n * (n + 1) / 2) err = err + 1
    if (inner() /= 3) err = err + 1
  contains
#include "inc/include_contains_inner.h"
  end subroutine work
end module include_contains_w

program include_contains
  use include_contains_m
  use include_contains_w
  implicit none
  include 'xmp_lib.h'
  integer :: k, err
  err = 0
  k = 1
  call bump(k)
  if (k /= 2) err = err + 1
  call work(err)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program include_contains
