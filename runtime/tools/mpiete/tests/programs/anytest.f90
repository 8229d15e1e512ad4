! MPI_Waitany, MPI_Test, MPI_Testall, MPI_Gather, MPI_Scatter under
! libxmpc_mpiete (runtime/tools/mpiete/tests/runtime.rs). Argument: the phase
! (waitany / test: 2 ranks; gather: 4 ranks). Blocks 1.. are compute blocks.
program anytest
  implicit none
  include 'mpif.h'
  integer :: ierr, r, p, req(2), idx, st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2), i
  double precision :: a(100), b(200), x(8), g(32), s(32)
  logical :: flag
  character(len=16) :: phase
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  call get_command_argument(1, phase)
  a = r
  b = 0
  call mpiete_region_begin()
  if (phase == 'waitany') then
    ! rank 1 sends tag 1 only after rank 0's first Waitany: that one must be tag 2
    if (r == 0) then
      call MPI_Irecv(b, 100, MPI_DOUBLE_PRECISION, 1, 1, MPI_COMM_WORLD, req(1), ierr)
      call MPI_Irecv(x, 1, MPI_DOUBLE_PRECISION, 1, 2, MPI_COMM_WORLD, req(2), ierr)
      call MPI_Waitany(2, req, idx, st, ierr)
      if (idx /= 2 .or. st(MPI_TAG) /= 2) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
      call mpiete_block_begin(1)
      call spin(1)
      call mpiete_block_end(1)
      call MPI_Send(x, 0, MPI_DOUBLE_PRECISION, 1, 3, MPI_COMM_WORLD, ierr)
      call MPI_Waitany(2, req, idx, st, ierr)
      if (idx /= 1 .or. b(100) /= 1) call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
      call MPI_Waitany(2, req, idx, st, ierr)
      if (idx /= MPI_UNDEFINED) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    else
      call MPI_Send(a, 1, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, ierr)
      call MPI_Recv(x, 0, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, st, ierr)
      call mpiete_block_begin(2)
      call spin(2)
      call mpiete_block_end(2)
      call MPI_Send(a, 100, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, ierr)
    end if
  else if (phase == 'test') then
    ! rank 0 polls MPI_Test, then MPI_Testall, while rank 1 computes
    if (r == 0) then
      call MPI_Irecv(b, 200, MPI_DOUBLE_PRECISION, 1, 4, MPI_COMM_WORLD, req(1), ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_Test(req(1), flag, st, ierr)
      end do
      if (st(MPI_SOURCE) /= 1 .or. b(200) /= 1) call MPI_Abort(MPI_COMM_WORLD, 4, ierr)
      call mpiete_block_begin(1)
      call spin(1)
      call mpiete_block_end(1)
      call MPI_Isend(a, 1, MPI_DOUBLE_PRECISION, 1, 5, MPI_COMM_WORLD, req(1), ierr)
      call MPI_Irecv(x, 2, MPI_DOUBLE_PRECISION, 1, 6, MPI_COMM_WORLD, req(2), ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_Testall(2, req, flag, sts, ierr)
      end do
      if (sts(MPI_TAG, 2) /= 6 .or. x(2) /= 1) call MPI_Abort(MPI_COMM_WORLD, 5, ierr)
    else
      a = 1
      b = 1
      call mpiete_block_begin(2)
      call spin(3)
      call mpiete_block_end(2)
      call MPI_Send(b, 200, MPI_DOUBLE_PRECISION, 0, 4, MPI_COMM_WORLD, ierr)
      call MPI_Recv(x, 1, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, st, ierr)
      call mpiete_block_begin(3)
      call spin(3)
      call mpiete_block_end(3)
      call MPI_Send(a, 2, MPI_DOUBLE_PRECISION, 0, 6, MPI_COMM_WORLD, ierr)
    end if
  else if (phase == 'gather') then
    ! 8 doubles per rank gathered to rank 0, then scattered from it
    call mpiete_block_begin(1)
    call spin(r + 1)
    call mpiete_block_end(1)
    x = 10 * r + [(i, i = 1, 8)]
    call MPI_Gather(x, 8, MPI_DOUBLE_PRECISION, g, 8, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    if (r == 0) then
      do i = 1, 8 * p
        if (g(i) /= 10 * ((i - 1) / 8) + mod(i - 1, 8) + 1) call MPI_Abort(MPI_COMM_WORLD, 6, ierr)
      end do
      s = -g
    end if
    call MPI_Scatter(s, 8, MPI_DOUBLE_PRECISION, x, 8, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
    do i = 1, 8
      if (x(i) /= -(10 * r + i)) call MPI_Abort(MPI_COMM_WORLD, 7, ierr)
    end do
  end if
  call mpiete_region_end()
  if (r == 0) print '(a)', 'ok'
  call MPI_Finalize(ierr)
contains
  subroutine spin(n)
    integer, intent(in) :: n
    double precision, save :: t
    double precision :: t0
    t0 = MPI_Wtime()
    t = 0
    do while (MPI_Wtime() - t0 < 2d-3 * n)
      t = t + 1
    end do
  end subroutine
end program
