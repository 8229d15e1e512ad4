! xmpc-test: np=1,2,4
! `#include "file"` of a file that carries XMP directives (template, distribute,
! align), and `#include "xmp_lib.h"`: the preprocessor runs before translation, so
! they are translated.
program cpp_include
  implicit none
#include "xmp_lib.h"
  integer, parameter :: n = 24
  integer :: a(n), i, s, cnt, err
!$xmp nodes p(*)
#include "inc/cpp_include.h"
  err = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
  s = 0
  cnt = 0
!$xmp loop on t(i) reduction(+:s, cnt)
  do i = 1, n
    s = s + a(i)
    cnt = cnt + 1
  end do
  if (s /= n * (n + 1) / 2) err = err + 1
  if (cnt /= n) err = err + 1
!$xmp reduction(+:err)
  if (xmp_node_num() == 1) then
    if (err == 0) then
      print *, 'PASS'
    else
      print *, 'ERROR', err, s, cnt
    end if
  end if
end program cpp_include
