! more.c in Fortran (mpif.h): MPI_Waitsome / MPI_Testany / MPI_Testsome
! ("some", 2 ranks), Gatherv / Scatterv / Allgatherv / Alltoallv ("v", 4
! ranks), persistent requests ("persist", 2 ranks) under libxmpc_mpiete;
! runtime/tools/mpiete/tests/runtime.rs checks both against one closed form.
program more
  implicit none
  include 'mpif.h'
  integer :: ierr, r
  character(len=16) :: phase
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call get_command_argument(1, phase)
  call mpiete_region_begin()
  if (phase == 'some') then
    call some(r)
  else if (phase == 'v') then
    call vcoll(r)
  else if (phase == 'persist') then
    call persist(r)
  else
    call MPI_Abort(MPI_COMM_WORLD, 99, ierr)
  end if
  call mpiete_region_end()
  if (r == 0) print '(a)', 'ok'
  call MPI_Finalize(ierr)
contains
  subroutine spin(s)
    double precision, intent(in) :: s
    double precision, save :: t
    double precision :: t0
    t0 = MPI_Wtime()
    t = 0
    do while (MPI_Wtime() - t0 < s)
      t = t + 1
    end do
  end subroutine

  subroutine block(id, s)
    integer, intent(in) :: id
    double precision, intent(in) :: s
    call mpiete_block_begin(id)
    call spin(s)
    call mpiete_block_end(id)
  end subroutine

  subroutine fail(code)
    integer, intent(in) :: code
    integer :: e
    call MPI_Abort(MPI_COMM_WORLD, code, e)
  end subroutine

  subroutine some(r)
    integer, intent(in) :: r
    double precision :: a(100), x(1), y(2), z(3)
    integer :: req(2), st(MPI_STATUS_SIZE, 2), n, idx(2), k, j, done, e
    logical :: flag
    a = r
    if (r == 0) then
      call MPI_Irecv(a, 100, MPI_DOUBLE_PRECISION, 1, 1, MPI_COMM_WORLD, req(1), e)
      call MPI_Irecv(x, 1, MPI_DOUBLE_PRECISION, 1, 2, MPI_COMM_WORLD, req(2), e)
      call MPI_Waitsome(2, req, n, idx, st, e)
      if (n /= 1 .or. idx(1) /= 2 .or. st(MPI_TAG, 1) /= 2) call fail(1)
      call block(1, 2d-3)
      call MPI_Send(x, 0, MPI_DOUBLE_PRECISION, 1, 3, MPI_COMM_WORLD, e)
      flag = .false.
      do while (.not. flag)
        call MPI_Testany(2, req, k, flag, st(:, 1), e)
      end do
      if (k /= 1 .or. a(100) /= 1 .or. st(MPI_SOURCE, 1) /= 1) call fail(2)
      call MPI_Testany(2, req, k, flag, st(:, 1), e)
      ! (MPICH's own binding returns MPI_UNDEFINED + 1 here)
      if (.not. flag .or. k > 0) call fail(3)
      call MPI_Waitsome(2, req, n, idx, st, e)
      if (n /= MPI_UNDEFINED) call fail(4)
      call MPI_Irecv(y, 2, MPI_DOUBLE_PRECISION, 1, 4, MPI_COMM_WORLD, req(1), e)
      call MPI_Irecv(z, 3, MPI_DOUBLE_PRECISION, 1, 5, MPI_COMM_WORLD, req(2), e)
      done = 0
      do while (done < 2)
        call MPI_Testsome(2, req, n, idx, st, e)
        do j = 1, n
          if (st(MPI_TAG, j) /= 3 + idx(j)) call fail(5)
        end do
        done = done + n
      end do
      if (y(2) /= 1 .or. z(3) /= 1) call fail(6)
    else
      call MPI_Send(a, 1, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, e)
      call MPI_Recv(x, 0, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD, st(:, 1), e)
      call block(2, 4d-3)
      call MPI_Send(a, 100, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, e)
      call block(3, 4d-3)
      call MPI_Send(a, 2, MPI_DOUBLE_PRECISION, 0, 4, MPI_COMM_WORLD, e)
      call MPI_Send(a, 3, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, e)
    end if
  end subroutine

  subroutine vcoll(r)
    integer, intent(in) :: r
    ! counts in doubles (runtime.rs has the same tables)
    integer, parameter :: gv(0:3) = [2, 3, 0, 5], sv(0:3) = [4, 1, 2, 0], ag(0:3) = [1, 4, 2, 3]
    double precision :: s(16), g(16), v(16), t(16)
    integer :: dis(0:3), sc(0:3), rc(0:3), sd(0:3), rd(0:3), off, i, p, so, ro, e
    call block(1, 1d-3 * (r + 1))
    off = 0
    do i = 3, 0, -1
      dis(i) = off
      off = off + gv(i)
    end do
    s = [(10 * r + i, i = 0, 15)]
    call MPI_Gatherv(s, gv(r), MPI_DOUBLE_PRECISION, g, gv, dis, MPI_DOUBLE_PRECISION, 1, &
        MPI_COMM_WORLD, e)
    if (r == 1) then
      do p = 0, 3
        do i = 0, gv(p) - 1
          if (g(dis(p) + i + 1) /= 10 * p + i) call fail(10)
        end do
      end do
    end if
    off = 0
    do i = 0, 3
      dis(i) = off
      off = off + sv(i)
    end do
    g = [(-i, i = 0, 15)]
    call MPI_Scatterv(g, sv, dis, MPI_DOUBLE_PRECISION, v, sv(r), MPI_DOUBLE_PRECISION, 1, &
        MPI_COMM_WORLD, e)
    do i = 0, sv(r) - 1
      if (v(i + 1) /= -(dis(r) + i)) call fail(11)
    end do
    call block(2, 1d-3 * (4 - r))
    off = 0
    do i = 0, 3
      dis(i) = off
      off = off + ag(i)
    end do
    s = [(100 * r + i, i = 0, 15)]
    call MPI_Allgatherv(s, ag(r), MPI_DOUBLE_PRECISION, g, ag, dis, MPI_DOUBLE_PRECISION, &
        MPI_COMM_WORLD, e)
    do p = 0, 3
      do i = 0, ag(p) - 1
        if (g(dis(p) + i + 1) /= 100 * p + i) call fail(12)
      end do
    end do
    so = 0
    ro = 0
    do p = 0, 3
      sc(p) = mod(r + p, 3)
      sd(p) = so
      so = so + sc(p)
      rc(p) = mod(p + r, 3)
      rd(p) = ro
      ro = ro + rc(p)
      do i = 0, sc(p) - 1
        s(sd(p) + i + 1) = 1000 * r + 10 * p + i
      end do
    end do
    t = 0
    call MPI_Alltoallv(s, sc, sd, MPI_DOUBLE_PRECISION, t, rc, rd, MPI_DOUBLE_PRECISION, &
        MPI_COMM_WORLD, e)
    do p = 0, 3
      do i = 0, rc(p) - 1
        if (t(rd(p) + i + 1) /= 1000 * p + 10 * r + i) call fail(13)
      end do
    end do
  end subroutine

  subroutine persist(r)
    integer, intent(in) :: r
    double precision :: out(10), in(10)
    integer :: rq(2), o, it, i, e
    o = 1 - r
    out = 0
    if (r == 0) then
      call MPI_Send_init(out, 10, MPI_DOUBLE_PRECISION, o, 6, MPI_COMM_WORLD, rq(1), e)
      call MPI_Recv_init(in, 10, MPI_DOUBLE_PRECISION, o, 7, MPI_COMM_WORLD, rq(2), e)
    else
      call MPI_Recv_init(in, 10, MPI_DOUBLE_PRECISION, o, 6, MPI_COMM_WORLD, rq(1), e)
      call MPI_Send_init(out, 10, MPI_DOUBLE_PRECISION, o, 7, MPI_COMM_WORLD, rq(2), e)
    end if
    do it = 0, 2
      out = [(100 * r + 10 * it + i, i = 0, 9)]
      if (r == 0) then
        call block(1, 1d-3)
        call MPI_Startall(2, rq, e)
        call MPI_Waitall(2, rq, MPI_STATUSES_IGNORE, e)
      else
        call MPI_Start(rq(1), e)
        call block(2, 3d-3)
        call MPI_Start(rq(2), e)
        call MPI_Wait(rq(1), MPI_STATUS_IGNORE, e)
        call MPI_Wait(rq(2), MPI_STATUS_IGNORE, e)
      end if
      do i = 0, 9
        if (in(i + 1) /= 100 * o + 10 * it + i) call fail(20)
      end do
    end do
    call MPI_Request_free(rq(1), e)
    call MPI_Request_free(rq(2), e)
    if (rq(1) /= MPI_REQUEST_NULL) call fail(21)
  end subroutine
end program
