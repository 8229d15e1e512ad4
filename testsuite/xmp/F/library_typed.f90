! xmpc-test: np=1,3
! The library's functions are typed without a declaration, as Omni's front end types
! them: `xmp_node_num()` and the others under `implicit none`, `xmp_wtime()` double
! precision where implicit typing would make it real (compared with MPI_Wtime), inside
! statements the translator keeps as text (`write`, `select case`), in a procedure that
! uses a module which includes xmp_lib.h (CloverLeaf's pattern: a declaration of the
! translator's own would clash with the module's), and next to a unit that declares
! them itself.
module withlib
  include 'xmp_lib.h'
  integer :: counted = 0
end module withlib

program library_typed
  implicit none
  include 'mpif.h'
  integer :: nerr, me, n, k
  character(len=16) :: line
  double precision :: t0
!$xmp nodes p(*)
  nerr = 0
  me = xmp_node_num()
  n = xmp_num_nodes()
  if (me < 1 .or. me > n .or. n /= xmp_all_num_nodes()) nerr = nerr + 1
  if (xmp_all_node_num() /= me) nerr = nerr + 1
  t0 = xmp_wtime()
  if (abs(t0 - MPI_Wtime()) > 1d0 .or. xmp_wtick() <= 0d0 .or. xmp_wtick() > 1d0) nerr = nerr + 1
  ! kept as text by the translator: a write and a select case
  write (line, '(i6)') xmp_node_num() * 10
  read (line, *) k
  if (k /= 10 * me) nerr = nerr + 1
  select case (xmp_num_nodes())
  case (1:)
    k = xmp_node_num()
  case default
    k = -1
  end select
  if (k /= me) nerr = nerr + 1
  call implicit_typing(nerr)
  call from_module(nerr)
  call declared(nerr)
!$xmp reduction(+:nerr)
  if (nerr /= 0) then
    if (me == 1) print *, 'ERROR', nerr
    call exit(1)
  end if
  if (me == 1) print *, 'PASS'
end program library_typed

! implicit typing: `x...` names are real there, the library's are not
subroutine implicit_typing(nerr)
  include 'mpif.h'
  integer :: nerr
  double precision :: t
  t = xmp_wtime()
  if (abs(t - MPI_Wtime()) > 1d0) nerr = nerr + 1
  if (xmp_num_nodes() /= xmp_all_num_nodes()) nerr = nerr + 1
end subroutine implicit_typing

subroutine from_module(nerr)
  use withlib
  implicit none
  integer :: nerr
  type(xmp_desc) :: d
!$xmp nodes q(*)
  d = xmp_desc_of(q)
  counted = counted + xmp_node_num()
  if (counted /= xmp_node_num()) nerr = nerr + 1
  if (xmp_nodes_size(d, 1, counted) /= 0 .or. counted /= xmp_num_nodes()) nerr = nerr + 1
end subroutine from_module

subroutine declared(nerr)
  implicit none
  integer :: nerr
  integer :: xmp_node_num, xmp_num_nodes
  double precision :: xmp_wtime
  if (xmp_node_num() > xmp_num_nodes() .or. xmp_wtime() <= 0d0) nerr = nerr + 1
end subroutine declared
