! xmpc-test: np=1,2,4
! The XMP library from Fortran: type(xmp_desc) and xmp_desc_of (xmp_lib.h),
! inquiry in Fortran dimension order and indices (lower bounds 0 and 1),
! xmp_gather with Fortran indices, xmp_pack/xmp_unpack in column-major order and
! xmp_transpose, compared with sequential loops.
program library
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 13, r = 5, c = 7
!$xmp nodes p(*)
!$xmp template t(0:n-1)
!$xmp template t2(c, r)
!$xmp template t3(r, c)
!$xmp distribute t(block) onto p
!$xmp distribute t2(*, block) onto p
!$xmp distribute t3(*, cyclic) onto p
!$xmp template tv(r*c)
!$xmp distribute tv(cyclic(2)) onto p
  integer :: a(0:n-1), x(0:n-1), idx(0:n-1)
  integer :: b(r, c), bt(c, r), m(r, c), v(r*c), ref(r*c)
!$xmp align a(i) with t(i)
!$xmp align x(i) with t(i)
!$xmp align idx(i) with t(i)
!$xmp align b(i, j) with t3(i, j)
!$xmp align m(i, j) with t3(i, j)
!$xmp align bt(i, j) with t2(i, j)
!$xmp align v(k) with tv(k)
  type(xmp_desc) :: da, dt
  integer :: i, j, k, nerr, ival, ierr
  nerr = 0
  da = xmp_desc_of(b)
  ierr = xmp_array_ndims(da, ival)
  if (ierr /= 0 .or. ival /= 2) nerr = nerr + 1
  ierr = xmp_array_lbound(da, 2, ival)
  if (ival /= 1) nerr = nerr + 1
  ierr = xmp_array_ubound(da, 2, ival)
  if (ival /= c) nerr = nerr + 1
  ierr = xmp_array_ubound(xmp_desc_of(a), 1, ival)
  if (ival /= n - 1) nerr = nerr + 1
  ierr = xmp_align_axis(da, 2, ival)
  if (ival /= 2) nerr = nerr + 1
  ierr = xmp_align_template(da, dt)
  ierr = xmp_dist_format(dt, 2, ival)
  if (ival /= XMP_CYCLIC) nerr = nerr + 1
  ierr = xmp_dist_format(dt, 1, ival)
  if (ival /= XMP_NOT_DISTRIBUTED) nerr = nerr + 1
! gather with a reversal: x(i) = a(n-1-i)
!$xmp loop on t(i)
  do i = 0, n - 1
    a(i) = 100 + i
    idx(i) = n - 1 - i
  end do
  call xmp_gather(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(idx))
!$xmp loop on t(i) reduction(+:nerr)
  do i = 0, n - 1
    if (x(i) /= 100 + n - 1 - i) nerr = nerr + 1
  end do
! pack in column-major order
!$xmp loop on t3(i, j)
  do j = 1, c
    do i = 1, r
      b(i, j) = i * 10 + j
      m(i, j) = mod(i + 2 * j, 3)
    end do
  end do
!$xmp loop on tv(k)
  do k = 1, r * c
    v(k) = -1
  end do
  ref = -1
  k = 0
  do j = 1, c
    do i = 1, r
      if (mod(i + 2 * j, 3) /= 0) then
        k = k + 1
        ref(k) = i * 10 + j
      end if
    end do
  end do
  call xmp_pack(xmp_desc_of(v), xmp_desc_of(b), xmp_desc_of(m))
!$xmp loop on tv(k) reduction(+:nerr)
  do k = 1, r * c
    if (v(k) /= ref(k)) nerr = nerr + 1
  end do
! transpose
  call xmp_transpose(xmp_desc_of(bt), xmp_desc_of(b), 0)
!$xmp loop on t2(i, j) reduction(+:nerr)
  do j = 1, r
    do i = 1, c
      if (bt(i, j) /= j * 10 + i) nerr = nerr + 1
    end do
  end do
!$xmp reduction(+:nerr)
  if (nerr /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', nerr
    call xmp_exit(1)
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program library
