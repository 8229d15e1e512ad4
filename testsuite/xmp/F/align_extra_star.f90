! xmpc-test: np=1,2,4
! `align b(i,*) with ty(i,*)` where ty is 1-dimensional (Omni's intrinsic/F
! intrinsic_matmul): the `*` past the template's rank names no dimension, as Omni
! accepts it; b's first dimension is distributed, the second collapsed
program align_extra_star
  include 'xmp_lib.h'
  integer, parameter :: n = 12, m = 5
!$xmp nodes p(*)
!$xmp template ty(n)
!$xmp distribute ty(cyclic) onto p
  integer :: b(n, m), i, j, err
!$xmp align b(i,*) with ty(i,*)
  err = 0
!$xmp loop on ty(i)
  do i = 1, n
    do j = 1, m
      b(i, j) = 100 * i + j
    end do
  end do
!$xmp loop on ty(i) reduction(+:err)
  do i = 1, n
    do j = 1, m
      if (b(i, j) /= 100 * i + j) err = err + 1
    end do
  end do
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program
