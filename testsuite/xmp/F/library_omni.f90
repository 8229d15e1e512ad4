! xmpc-test: np=1,2,4
! The XMP library called as Omni's Fortran tests call it: no xmp_lib.h, no
! declarations (`implicit none` in the procedures that need none), `xmp_desc_of` of
! aligned arrays, templates and node sets (a node subset, an array of a module, an
! array of the host), `call xmp_transpose(b, a, opt)` with the arrays themselves,
! xmp_matmul of complex and real arrays, xmp_gather/xmp_scatter, xmp_pack/xmp_unpack
! and xmp_sort_up/xmp_sort_down; each compared with a sequential computation.
module libdata
  integer, parameter :: nv = 17
  real(8) :: w(nv)
!$xmp nodes pm(*)
!$xmp template tm(nv)
!$xmp distribute tm(cyclic) onto pm
!$xmp align w(i) with tm(i)
end module libdata

program library_omni
  implicit none
  integer :: nerr
  nerr = 0
  call transpose_test(nerr)
  call matmul_test(nerr)
  call gather_scatter_test(nerr)
  call pack_test(nerr)
  call sort_test(nerr)
  call inquiry_test(nerr)
!$xmp reduction(+:nerr)
  if (nerr /= 0) then
    if (xmp_node_num() == 1) print *, 'ERROR', nerr
    call exit(1)
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program library_omni

subroutine transpose_test(nerr)
  implicit none
  integer :: nerr
  integer, parameter :: m = 9, n = 11
  complex(8) :: a(m, n), b(n, m)
  integer :: i, j, e
!$xmp nodes p(*)
!$xmp template tx(n)
!$xmp template ty(m)
!$xmp distribute tx(block) onto p
!$xmp distribute ty(cyclic) onto p
!$xmp align a(*, j) with tx(j)
!$xmp align b(*, j) with ty(j)
!$xmp loop on tx(j)
  do j = 1, n
    do i = 1, m
      a(i, j) = cmplx(i * 100 + j, -j, 8)
    end do
  end do
!$xmp loop on ty(j)
  do j = 1, m
    do i = 1, n
      b(i, j) = 0
    end do
  end do
  call xmp_transpose(b, a, 0)
  e = 0
!$xmp loop on ty(j) reduction(+:e)
  do j = 1, m
    do i = 1, n
      if (b(i, j) /= cmplx(j * 100 + i, -i, 8)) e = e + 1
    end do
  end do
  nerr = nerr + e
end subroutine transpose_test

subroutine matmul_test(nerr)
  implicit none
  integer :: nerr
  integer, parameter :: n1 = 7, n2 = 5, n3 = 6
  real(8) :: a(n1, n2), b(n2, n3), x(n1, n3)
  integer(2) :: a2(n1, n2), b2(n2, n3), x2(n1, n3)
  integer :: i, j, k, e
  real(8) :: s
!$xmp nodes p(*)
!$xmp template ta(n2)
!$xmp template tb(n3)
!$xmp distribute ta(block) onto p
!$xmp distribute tb(cyclic) onto p
!$xmp align a(*, j) with ta(j)
!$xmp align b(*, j) with tb(j)
!$xmp align x(*, j) with tb(j)
!$xmp align a2(*, j) with ta(j)
!$xmp align b2(*, j) with tb(j)
!$xmp align x2(*, j) with tb(j)
!$xmp loop on ta(j)
  do j = 1, n2
    do i = 1, n1
      a(i, j) = i + 2 * j
      a2(i, j) = int(i + 2 * j, 2)
    end do
  end do
!$xmp loop on tb(j)
  do j = 1, n3
    do i = 1, n2
      b(i, j) = i - j
      b2(i, j) = int(i - j, 2)
    end do
    do i = 1, n1
      x(i, j) = -1
      x2(i, j) = -1
    end do
  end do
  call xmp_matmul(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(b))
  ! integer(2) elements (the runtime's short)
  call xmp_matmul(xmp_desc_of(x2), xmp_desc_of(a2), xmp_desc_of(b2))
  e = 0
!$xmp loop on tb(j) reduction(+:e)
  do j = 1, n3
    do i = 1, n1
      s = 0
      do k = 1, n2
        s = s + dble(i + 2 * k) * dble(k - j)
      end do
      if (abs(x(i, j) - s) > 1d-9) e = e + 1
      if (x2(i, j) /= nint(s)) e = e + 1
    end do
  end do
  nerr = nerr + e
end subroutine matmul_test

subroutine gather_scatter_test(nerr)
  implicit none
  integer :: nerr
  integer, parameter :: n = 4
  integer(8) :: a(n, n), x(n, n), i1(n, n), i2(n, n)
  integer :: i, j, e
!$xmp nodes p(*)
!$xmp template t(n, n)
!$xmp distribute t(*, block) onto p
!$xmp align a(i, j) with t(i, j)
!$xmp align x(i, j) with t(i, j)
!$xmp align i1(i, j) with t(i, j)
!$xmp align i2(i, j) with t(i, j)
!$xmp loop on t(i, j)
  do j = 1, n
    do i = 1, n
      a(i, j) = i * 10 + j
      x(i, j) = 0
      i1(i, j) = j
      i2(i, j) = n + 1 - i
    end do
  end do
  ! x(i, j) = a(i1(i, j), i2(i, j)) = a(j, n + 1 - i)
  call xmp_gather(xmp_desc_of(x), xmp_desc_of(a), xmp_desc_of(i1), xmp_desc_of(i2))
  e = 0
!$xmp loop on t(i, j) reduction(+:e)
  do j = 1, n
    do i = 1, n
      if (x(i, j) /= j * 10 + n + 1 - i) e = e + 1
    end do
  end do
  ! a(i1(i, j), i2(i, j)) = x(i, j): back to a's values
!$xmp loop on t(i, j)
  do j = 1, n
    do i = 1, n
      a(i, j) = 0
    end do
  end do
  call xmp_scatter(xmp_desc_of(a), xmp_desc_of(x), xmp_desc_of(i1), xmp_desc_of(i2))
!$xmp loop on t(i, j) reduction(+:e)
  do j = 1, n
    do i = 1, n
      if (a(i, j) /= i * 10 + j) e = e + 1
    end do
  end do
  nerr = nerr + e
end subroutine gather_scatter_test

subroutine pack_test(nerr)
  implicit none
  integer :: nerr
  integer, parameter :: n = 6
  integer :: a(n, n), a2(n, n), v(n * n), ref(n * n)
  logical :: mask(n, n)
  integer :: i, j, k, e
!$xmp nodes p(*)
!$xmp template t(n, n)
!$xmp template tv(n * n)
!$xmp distribute t(*, cyclic) onto p
!$xmp distribute tv(block) onto p
!$xmp align a(i, j) with t(i, j)
!$xmp align a2(i, j) with t(i, j)
!$xmp align mask(i, j) with t(i, j)
!$xmp align v(k) with tv(k)
!$xmp loop on t(i, j)
  do j = 1, n
    do i = 1, n
      a(i, j) = i * 10 + j
      a2(i, j) = -1
      mask(i, j) = mod(i + j, 3) == 0
    end do
  end do
!$xmp loop on tv(k)
  do k = 1, n * n
    v(k) = -1
  end do
  ref = -1
  k = 0
  do j = 1, n
    do i = 1, n
      if (mod(i + j, 3) == 0) then
        k = k + 1
        ref(k) = i * 10 + j
      end if
    end do
  end do
  call xmp_pack(xmp_desc_of(v), xmp_desc_of(a), xmp_desc_of(mask))
  e = 0
!$xmp loop on tv(k) reduction(+:e)
  do k = 1, n * n
    if (v(k) /= ref(k)) e = e + 1
  end do
  call xmp_unpack(xmp_desc_of(a2), xmp_desc_of(v), xmp_desc_of(mask))
!$xmp loop on t(i, j) reduction(+:e)
  do j = 1, n
    do i = 1, n
      if (mod(i + j, 3) == 0 .and. a2(i, j) /= i * 10 + j) e = e + 1
      if (mod(i + j, 3) /= 0 .and. a2(i, j) /= -1) e = e + 1
    end do
  end do
  nerr = nerr + e
end subroutine pack_test

! the module's array (cyclic) sorted into this unit's block-distributed one
subroutine sort_test(nerr)
  use libdata
  implicit none
  integer :: nerr
  real(8) :: s(nv)
  integer :: i, e
!$xmp template ts(nv)
!$xmp distribute ts(block) onto pm
!$xmp align s(i) with ts(i)
!$xmp loop on tm(i)
  do i = 1, nv
    w(i) = mod(i * 7, nv) + 0.5d0
  end do
  call xmp_sort_up(xmp_desc_of(w), xmp_desc_of(s))
  e = 0
  ! mod(i * 7, 17) takes every value 0..16 once
!$xmp loop on ts(i) reduction(+:e)
  do i = 1, nv
    if (s(i) /= i - 0.5d0) e = e + 1
  end do
  call xmp_sort_down(xmp_desc_of(w), xmp_desc_of(s))
!$xmp loop on ts(i) reduction(+:e)
  do i = 1, nv
    if (s(i) /= nv - i + 0.5d0) e = e + 1
  end do
  nerr = nerr + e
end subroutine sort_test

! descriptors of node sets and templates (Omni translates xmp_desc_of for them too),
! in a contained procedure using its host's objects
subroutine inquiry_test(nerr)
  integer :: nerr
!$xmp nodes p(*)
!$xmp nodes q(1) = p(1)
!$xmp template t(3:20)
!$xmp distribute t(block) onto p
  integer :: b(3:20)
!$xmp align b(i) with t(i)
  call inner(nerr)
contains
  subroutine inner(nerr)
    implicit none
    integer :: nerr, ierr, v, s
    ierr = xmp_nodes_index(xmp_desc_of(p), 1, v)
    if (ierr /= 0 .or. v /= xmp_node_num()) nerr = nerr + 1
    ierr = xmp_nodes_size(xmp_desc_of(p), 1, s)
    if (ierr /= 0 .or. s /= xmp_num_nodes()) nerr = nerr + 1
    ierr = xmp_nodes_size(xmp_desc_of(q), 1, s)
    if (ierr /= 0 .or. s /= 1) nerr = nerr + 1
    ierr = xmp_template_lbound(xmp_desc_of(t), 1, v)
    if (ierr /= 0 .or. v /= 3) nerr = nerr + 1
    ierr = xmp_template_ubound(xmp_desc_of(t), 1, v)
    if (ierr /= 0 .or. v /= 20) nerr = nerr + 1
    ierr = xmp_array_lbound(xmp_desc_of(b), 1, v)
    if (ierr /= 0 .or. v /= 3) nerr = nerr + 1
    ierr = xmp_dist_format(xmp_desc_of(t), 1, v)
    if (ierr /= 0 .or. v /= 2101) nerr = nerr + 1
  end subroutine inner
end subroutine inquiry_test
