! CG-like kernel (NPB CG style): conjugate gradient on the 5-point Laplacian
! of an n x n grid (Dirichlet boundary), rows of the grid split into slabs,
! one per rank. Each iteration: halo exchange of one grid row with each
! neighbour (MPI_Irecv/MPI_Isend/MPI_Waitall), the matrix-vector product, and
! two dot products combined with MPI_Allreduce.
!
! usage: cg [n] [iterations]    (default n = 600, 300 iterations)
! Self-check: after the iterations the residual of the recurrence must match
! the explicitly recomputed b - A x (relative 1e-6; a wrong halo or sum
! breaks it).
!
! mpiete_region_begin/end mark the predicted region (libxmpc_mpiete; the
! blocks are found and timed by `xmpc --blocks --instrument=...`).
program cg
  use mpi
  implicit none
  integer :: rank, np, ierr, n, iters, it, i, j, j0, j1, nl, up, dn, nargs
  integer :: req(4)
  double precision, allocatable :: x(:,:), r(:,:), p(:,:), q(:,:), b(:,:)
  double precision :: rho, rho0, alpha, beta, pq, loc(1), glob(1), rnorm0, rexp
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  n = 600
  iters = 300
  nargs = command_argument_count()
  if (nargs >= 1) then
    call get_command_argument(1, arg)
    read(arg, *) n
  end if
  if (nargs >= 2) then
    call get_command_argument(2, arg)
    read(arg, *) iters
  end if
  ! grid rows j0..j1 of 1..n on this rank, with halo rows j0-1 and j1+1
  j0 = (n * rank) / np + 1
  j1 = (n * (rank + 1)) / np
  nl = j1 - j0 + 1
  up = rank + 1
  dn = rank - 1
  if (up == np) up = MPI_PROC_NULL
  if (dn < 0) dn = MPI_PROC_NULL
  allocate(x(n, j0-1:j1+1), r(n, j0-1:j1+1), p(n, j0-1:j1+1), q(n, j0-1:j1+1), b(n, j0-1:j1+1))
  do j = j0 - 1, j1 + 1
    do i = 1, n
      b(i, j) = sin(0.01d0 * i * j) + 1.0d0
    end do
  end do
  x = 0.0d0
  q = 0.0d0
  r = b
  p = b
  loc(1) = sum(r(:, j0:j1)**2)
  call MPI_Allreduce(loc, glob, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  rho = glob(1)
  rnorm0 = sqrt(rho)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call mpiete_region_begin()
  do it = 1, iters
    call halo(p)
    do j = j0, j1
      do i = 1, n
        q(i, j) = 4.0d0 * p(i, j) - p(i, j - 1) - p(i, j + 1)
        if (i > 1) q(i, j) = q(i, j) - p(i - 1, j)
        if (i < n) q(i, j) = q(i, j) - p(i + 1, j)
      end do
    end do
    pq = 0.0d0
    do j = j0, j1
      do i = 1, n
        pq = pq + p(i, j) * q(i, j)
      end do
    end do
    loc(1) = pq
    call MPI_Allreduce(loc, glob, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    alpha = rho / glob(1)
    rho0 = rho
    rho = 0.0d0
    do j = j0, j1
      do i = 1, n
        x(i, j) = x(i, j) + alpha * p(i, j)
        r(i, j) = r(i, j) - alpha * q(i, j)
        rho = rho + r(i, j)**2
      end do
    end do
    loc(1) = rho
    call MPI_Allreduce(loc, glob, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    rho = glob(1)
    beta = rho / rho0
    do j = j0, j1
      do i = 1, n
        p(i, j) = r(i, j) + beta * p(i, j)
      end do
    end do
  end do
  call mpiete_region_end()

  ! explicit residual b - A x
  call halo(x)
  loc(1) = 0.0d0
  do j = j0, j1
    do i = 1, n
      pq = 4.0d0 * x(i, j) - x(i, j - 1) - x(i, j + 1)
      if (i > 1) pq = pq - x(i - 1, j)
      if (i < n) pq = pq - x(i + 1, j)
      loc(1) = loc(1) + (b(i, j) - pq)**2
    end do
  end do
  call MPI_Allreduce(loc, glob, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  rexp = sqrt(glob(1))
  if (rank == 0) then
    print '(a,i0,a,i0,a,i0,a,es14.6,a,es14.6,a,es14.6)', 'CG n=', n, ' np=', np, ' iters=', iters, &
      ' r0=', rnorm0, ' r=', sqrt(rho), ' explicit=', rexp
    if (abs(rexp - sqrt(rho)) > 1.0d-6 * rnorm0 + 1.0d-6 * rexp) then
      print '(a)', 'CG FAILED'
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    print '(a)', 'CG VERIFIED'
  end if
  call MPI_Finalize(ierr)

contains

  ! rows j0 and j1 to the neighbours, halo rows j0-1 and j1+1 from them
  subroutine halo(v)
    double precision, intent(inout) :: v(n, j0-1:j1+1)
    integer :: st(MPI_STATUS_SIZE, 4)
    call MPI_Irecv(v(1, j0 - 1), n, MPI_DOUBLE_PRECISION, dn, 1, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Irecv(v(1, j1 + 1), n, MPI_DOUBLE_PRECISION, up, 2, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Isend(v(1, j1), n, MPI_DOUBLE_PRECISION, up, 1, MPI_COMM_WORLD, req(3), ierr)
    call MPI_Isend(v(1, j0), n, MPI_DOUBLE_PRECISION, dn, 2, MPI_COMM_WORLD, req(4), ierr)
    call MPI_Waitall(4, req, st, ierr)
    if (dn == MPI_PROC_NULL) v(:, j0 - 1) = 0.0d0
    if (up == MPI_PROC_NULL) v(:, j1 + 1) = 0.0d0
  end subroutine halo
end program cg
