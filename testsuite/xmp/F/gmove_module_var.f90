! xmpc-test: np=1,2,4
! gmove with a module's plain array in a procedure that uses the module under implicit
! typing (the module's declaration, not the implicit type of the name: Omni's
! gmove_test_normal), and an element on the right assigned to a whole section
module gmv_mod
  integer, parameter :: n = 8
!$xmp nodes p(*)
!$xmp template t(n, n)
!$xmp distribute t(*, block) onto p
  integer a(n, n)
!$xmp align a(i, j) with t(i, j)
  integer x(n, n)
end module gmv_mod

subroutine check(err)
  use gmv_mod
  integer err
  do j = 1, n
    do i = 1, n
      x(i, j) = 100 * i + j
    end do
  end do
!$xmp loop on t(i, j)
  do j = 1, n
    do i = 1, n
      a(i, j) = 0
    end do
  end do
  ! distributed section <- plain module section (strided)
!$xmp gmove
  a(1:n/2, 2:n) = x(1:n:2, 1:n-1)
!$xmp loop on t(i, j) reduction(+:err)
  do j = 2, n
    do i = 1, n/2
      if (a(i, j) /= 100 * (2 * i - 1) + (j - 1)) err = err + 1
    end do
  end do
  ! distributed section <- one element of a distributed array
!$xmp gmove
  a(2:n, 1:n/2) = a(1, n)
!$xmp loop on t(i, j) reduction(+:err)
  do j = 1, n/2
    do i = 2, n
      if (a(i, j) /= a_1n()) err = err + 1
    end do
  end do
  ! plain module section <- one element of a distributed array
!$xmp gmove
  x(:, 3) = a(n/2, n)
  do i = 1, n
    if (x(i, 3) /= 100 * (n - 1) + (n - 1)) err = err + 1
  end do
contains
  integer function a_1n()
    a_1n = 100 * 1 + (n - 1)
  end function
end subroutine

program gmove_module_var
  integer :: err = 0
  call check(err)
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program
