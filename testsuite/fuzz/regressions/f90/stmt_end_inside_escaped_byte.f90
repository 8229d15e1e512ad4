! xmpc-test: np=1,2
! procedures `#dule include_contains_m
  implicit none
!$xmp nodes p(*)
  integer :Æß˜ßÂßÊîcontains
#include "inc/include_contains.h"
end module include_contains_m

module include_cont   if (inner() /= 3) err = err + 1
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
  if (ains
