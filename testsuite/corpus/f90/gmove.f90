! gmove between a block-distributed and a cyclic(3)-distributed array, whole
! arrays and strided sections.
!
! xmpc-test: np=4
program gmove_test
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 64
  real(8) :: a(n), b(n)
  integer :: i, nerr
!$xmp nodes p(4)
!$xmp template ta(n)
!$xmp template tb(n)
!$xmp distribute ta(block) onto p
!$xmp distribute tb(cyclic(3)) onto p
!$xmp align a(i) with ta(i)
!$xmp align b(i) with tb(i)

!$xmp loop on ta(i)
  do i = 1, n
    a(i) = dble(i)
  end do
!$xmp loop on tb(i)
  do i = 1, n
    b(i) = 0.0d0
  end do

!$xmp gmove
  b(1:n) = a(1:n)

  nerr = 0
!$xmp loop on tb(i) reduction(+: nerr)
  do i = 1, n
    if (b(i) /= dble(i)) nerr = nerr + 1
  end do

!$xmp loop on tb(i)
  do i = 1, n
    b(i) = -1.0d0
  end do
!$xmp gmove
  b(2:n:2) = a(1:n/2)

!$xmp loop on tb(i) reduction(+: nerr)
  do i = 1, n
    if (mod(i, 2) == 0) then
      if (b(i) /= dble(i / 2)) nerr = nerr + 1
    else
      if (b(i) /= -1.0d0) nerr = nerr + 1
    end if
  end do

  if (nerr /= 0) then
    if (xmp_node_num() == 1) print *, 'FAIL', nerr
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gmove_test
