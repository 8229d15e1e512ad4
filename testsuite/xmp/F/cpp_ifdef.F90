! xmpc-test: np=1,2,4 flags=-DXMPC_BIG
! XMP directives in both branches of `#ifdef` (the branch chosen by -D on the command
! line), a macro inside a directive, and a `loop` only in one branch: the Fortran
! preprocessor runs before translation, as Omni's xmpf90 does for .F90 files.
#define NSMALL 12
program cpp_ifdef
  implicit none
  include 'xmp_lib.h'
#ifdef XMPC_BIG
  integer, parameter :: n = 40
#else
  integer, parameter :: n = NSMALL
#endif
  integer :: a(n), i, s, err
!$xmp nodes p(*)
#ifdef XMPC_BIG
!$xmp template t(40)
!$xmp distribute t(cyclic) onto p
#else
!$xmp template t(NSMALL)
!$xmp distribute t(block) onto p
#endif
!$xmp align a(i) with t(i)
  err = 0
#ifdef XMPC_BIG
!$xmp loop on t(i)
  do i = 1, n
    a(i) = 2 * i
  end do
#else
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
#endif
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  if (s /= n * (n + 1)) err = err + 1
  if (n /= 40) err = err + 1
!$xmp reduction(+:err)
  if (xmp_node_num() == 1) then
    if (err == 0) then
      print *, 'PASS'
    else
      print *, 'ERROR', err, s
    end if
  end if
end program cpp_ifdef
