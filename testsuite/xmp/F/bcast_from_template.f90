! xmpc-test: np=1,2,3,4
! bcast ... from t(j,:) on t(:,:): the node owning template row j sends (Omni's bcast6);
! a template `from` without `on`, and of an array
program bcast_from_template
  include 'xmp_lib.h'
  integer, parameter :: n = 12
!$xmp nodes p(*)
!$xmp template t(n, n)
!$xmp distribute t(block, *) onto p
  integer :: a, w, ans, err, j, i
  real(8) :: v(3)
  err = 0
  w = (n + xmp_num_nodes() - 1) / xmp_num_nodes()
  do j = 1, n
    a = xmp_node_num()
    do i = 1, 3
      v(i) = a + i
    end do
!$xmp bcast (a) from t(j,:) on t(:,:)
!$xmp bcast (v) from t(j,:)
    ans = (j - 1) / w + 1
    if (a /= ans) err = err + 1
    do i = 1, 3
      if (v(i) /= ans + i) err = err + 1
    end do
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program
