! xmpc-test: np=1,2,4
! aligned arrays declared with a dimension attribute, a trailing comment and
! another (local) entity in the same statement
program dimension_attr
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 14
  integer :: i, j, err
  real(8), dimension(n, n) :: u, w, serial   ! u, w distributed; serial is not
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (*, j) with t(j) :: u, w
  serial = 1.0d0
!$xmp loop on t(j)
  do j = 1, n
    do i = 1, n
      u(i, j) = i * j
      w(i, j) = u(i, j) + serial(i, j)
    end do
  end do
  err = 0
!$xmp loop on t(j) reduction(+:err)
  do j = 1, n
    do i = 1, n
      if (w(i, j) /= i * j + 1) err = err + 1
    end do
  end do
  if (err /= 0 .or. size(serial) /= n * n) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program dimension_attr
