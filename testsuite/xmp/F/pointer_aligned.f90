! xmpc-test: np=1,4
! an aligned pointer array (Omni's pointer/F): after `a => b` directives on `a` act
! on b's distributed array (reflect into b's shadow); re-pointed to c, on c
program pointer_aligned
  include 'xmp_lib.h'
  integer, parameter :: n = 8
  integer, pointer :: a(:,:)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(*,j) with t(j)
!$xmp shadow a(0,1)
  integer, target :: b(4,n), c(4,n)
!$xmp align b(*,j) with t(j)
!$xmp shadow b(0,1)
!$xmp align c(*,j) with t(j)
!$xmp shadow c(0,1)
  integer i, j, err
!$xmp loop on t(j)
  do j = 1, n
    do i = 1, 4
      b(i,j) = i * 100 + j
      c(i,j) = -(i * 100 + j)
    end do
  end do
  err = 0
  a => b
!$xmp reflect (a) width(0, /periodic/1:1)
!$xmp loop on t(j) reduction(+:err)
  do j = 1, n
    do i = 1, 4
      if (a(i, j) /= i * 100 + j) err = err + 1
      if (a(i, j - 1) /= i * 100 + modulo(j - 2, n) + 1) err = err + 1
      if (a(i, j + 1) /= i * 100 + modulo(j, n) + 1) err = err + 1
    end do
  end do
  a => c
!$xmp reflect (a)
!$xmp loop on t(j) reduction(+:err)
  do j = 2, n - 1
    do i = 1, 4
      if (c(i, j - 1) /= -(i * 100 + j - 1)) err = err + 1
      if (a(i, j + 1) /= -(i * 100 + j + 1)) err = err + 1
    end do
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program pointer_aligned
