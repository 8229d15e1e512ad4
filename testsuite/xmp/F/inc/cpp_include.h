! Included by cpp_include.F90 with `#include`: its directives are translated.
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
