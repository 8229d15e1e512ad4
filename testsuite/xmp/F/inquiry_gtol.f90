! xmpc-test: np=4
! xmp_array_gtol and xmp_array_lshadow/ushadow give Omni's answers (inquiry/F): the
! 0-based index in the block the owner stores compactly, shadow included, and the
! declared shadow widths — also for an array with a cyclic dimension, which xmpc's
! Fortran stores whole
program inquiry_gtol
  include 'xmp_lib.h'
  integer a(6,16), c(9), b(10)
  integer ierr, ival, l, err
!$xmp nodes p(2,2)
!$xmp nodes q(4)
!$xmp template t(16,6)
!$xmp template t2(9)
!$xmp template t3(10)
!$xmp distribute t(block, cyclic) onto p
!$xmp distribute t2(cyclic(2)) onto q
!$xmp distribute t3(block) onto q
!$xmp align a(i,j) with t(j,i)
!$xmp align c(i) with t2(i)
!$xmp align b(i) with t3(i)
!$xmp shadow a(0,1:2)
  err = 0
  ierr = xmp_array_lshadow(xmp_desc_of(a), 2, ival)
  if (ival /= 1) err = err + 1
  ierr = xmp_array_ushadow(xmp_desc_of(a), 2, ival)
  if (ival /= 2) err = err + 1
  ierr = xmp_array_lshadow(xmp_desc_of(a), 1, ival)
  if (ival /= 0) err = err + 1
  ierr = xmp_array_gtol(xmp_desc_of(a), 1, 4, l)
  if (l /= 1) err = err + 1
  ierr = xmp_array_gtol(xmp_desc_of(a), 2, 4, l)
  if (l /= 4) err = err + 1
  ierr = xmp_array_gtol(xmp_desc_of(a), 2, 12, l)
  if (l /= 4) err = err + 1
  ierr = xmp_array_gtol(xmp_desc_of(c), 1, 4, l)
  if (l /= 1) err = err + 1
  ierr = xmp_array_gtol(xmp_desc_of(c), 1, 9, l)
  if (l /= 2) err = err + 1
  ierr = xmp_array_gtol(xmp_desc_of(b), 1, 5, l)
  if (l /= 1) err = err + 1
  if (err /= 0) then
    print *, 'ERROR', err, xmp_node_num()
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program inquiry_gtol
