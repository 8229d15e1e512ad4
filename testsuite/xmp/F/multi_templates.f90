! xmpc-test: np=1,2,4
! two templates with different distributions in one program, one array on each
program multi_templates
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 24
  integer :: i, err
  real(8) :: a(n), b(n), sa, sb
!$xmp nodes p(*)
!$xmp template (n) :: ta, tb
!$xmp distribute ta(block) onto p
!$xmp distribute tb(cyclic) onto p
!$xmp align a(i) with ta(i)
!$xmp align b(i) with tb(i)
  sa = 0; sb = 0
!$xmp loop on ta(i)
  do i = 1, n
    a(i) = i
  end do
!$xmp loop on tb(i)
  do i = 1, n
    b(i) = 2 * i
  end do
!$xmp loop on ta(i) reduction(+:sa)
  do i = 1, n
    sa = sa + a(i)
  end do
!$xmp loop on tb(i) reduction(+:sb)
  do i = 1, n
    sb = sb + b(i)
  end do
  err = 0
  if (sa /= n * (n + 1) / 2 .or. sb /= n * (n + 1)) err = 1
  if (err /= 0) then
    print *, 'ERROR', sa, sb
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program multi_templates
