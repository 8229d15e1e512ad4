! xmpc-test: np=2,4
! `loop ... margin` in Fortran (as in C and Omni): a positive width runs the ring of
! shadow points around the node's block (corners included; /unbound/ past the
! template's ends, clipped to the loop's bounds otherwise), a negative width the inner
! ring of the block. Every node counts the points it ran and checks each one.
program loop_margin
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 8
  integer :: a(n, n)
  integer :: i, j, err, cnt, want, ilo, ihi, jlo, jhi, me, np, ncol, nrow
!$xmp nodes p(2, *)
!$xmp template t(n, n)
!$xmp distribute t(block, block) onto p
!$xmp align a(i, j) with t(i, j)
!$xmp shadow a(1, 1)
  err = 0
  me = xmp_node_num()
  np = xmp_num_nodes()
  ! the node's block, as the runtime gives it to a plain loop
  ilo = n + 1
  ihi = 0
  jlo = n + 1
  jhi = 0
!$xmp loop on t(i, j)
  do j = 1, n
    do i = 1, n
      ilo = min(ilo, i)
      ihi = max(ihi, i)
      jlo = min(jlo, j)
      jhi = max(jhi, j)
    end do
  end do
  ! positive width, clipped to the loop's bounds 1..n: the ring around the block
  cnt = 0
!$xmp loop on t(i, j) margin(1, 1)
  do j = 1, n
    do i = 1, n
      cnt = cnt + 1
      if (i >= ilo .and. i <= ihi .and. j >= jlo .and. j <= jhi) err = err + 1
      if (i < ilo - 1 .or. i > ihi + 1 .or. j < jlo - 1 .or. j > jhi + 1) err = err + 1
    end do
  end do
  nrow = min(ihi + 1, n) - max(ilo - 1, 1) + 1
  ncol = min(jhi + 1, n) - max(jlo - 1, 1) + 1
  want = nrow * ncol - (ihi - ilo + 1) * (jhi - jlo + 1)
  if (cnt /= want) err = err + 100
  ! negative width: the inner ring of the block
  cnt = 0
!$xmp loop on t(i, j) margin(-1, -1)
  do j = 1, n
    do i = 1, n
      cnt = cnt + 1
      if (i > ilo .and. i < ihi .and. j > jlo .and. j < jhi) err = err + 1
      if (i < ilo .or. i > ihi .or. j < jlo .or. j > jhi) err = err + 1
    end do
  end do
  want = (ihi - ilo + 1) * (jhi - jlo + 1) - max(ihi - ilo - 1, 0) * max(jhi - jlo - 1, 0)
  if (cnt /= want) err = err + 1000
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', me, err
    stop 1
  end if
  if (me == 1) print *, 'PASS'
end program loop_margin
