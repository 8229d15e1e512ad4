! 2-D Jacobi (Laplace, fixed boundary) on an n x n grid, columns split over the ranks,
! halo columns exchanged with MPI_Sendrecv, a global residual every 10 iterations.
! Self-check: rank 0 reruns the iterations serially.  Usage: jacobi2d [n [iters]]
program jacobi2d
  use mpi
  implicit none
  integer :: n, iters, rank, nprocs, cols, first, left, right, it, i, j, ierr
  double precision, allocatable :: u(:,:), unew(:,:), a(:,:), b(:,:)
  double precision :: local, resid, s, gsum, ref, t0, t1, tc0, tcomp
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  n = 64
  iters = 100
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) iters
  end if
  left = rank - 1
  if (rank == 0) left = MPI_PROC_NULL
  right = rank + 1
  if (rank == nprocs - 1) right = MPI_PROC_NULL
  resid = 0
  tcomp = 0

  cols = n / nprocs
  if (rank < mod(n, nprocs)) cols = cols + 1
  first = rank * (n / nprocs) + min(rank, mod(n, nprocs))
  allocate (u(0:n+1, 0:cols+1), unew(0:n+1, 0:cols+1))
  do j = 0, cols + 1
    do i = 0, n + 1
      u(i, j) = bval(i, first + j, n)
    end do
  end do
  unew = u

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do it = 1, iters
    call MPI_Sendrecv(u(0, 1), n + 2, MPI_DOUBLE_PRECISION, left, 0, u(0, cols + 1), n + 2, &
                      MPI_DOUBLE_PRECISION, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(0, cols), n + 2, MPI_DOUBLE_PRECISION, right, 1, u(0, 0), n + 2, &
                      MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    tc0 = MPI_Wtime()
    local = 0
    do j = 1, cols
      do i = 1, n
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
        local = local + abs(unew(i, j) - u(i, j))
      end do
    end do
    u(1:n, 1:cols) = unew(1:n, 1:cols)
    tcomp = tcomp + (MPI_Wtime() - tc0)
    if (mod(it, 10) == 0) then
      call MPI_Allreduce(local, resid, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    end if
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t1 = MPI_Wtime()

  s = 0
  do j = 1, cols
    do i = 1, n
      s = s + u(i, j) * (i + 0.5d0 * (first + j))
    end do
  end do
  call MPI_Reduce(s, gsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    allocate (a(0:n+1, 0:n+1), b(0:n+1, 0:n+1))
    do j = 0, n + 1
      do i = 0, n + 1
        a(i, j) = bval(i, j, n)
      end do
    end do
    b = a
    do it = 1, iters
      do j = 1, n
        do i = 1, n
          b(i, j) = 0.25d0 * (a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
        end do
      end do
      a(1:n, 1:n) = b(1:n, 1:n)
    end do
    ref = 0
    do j = 1, n
      do i = 1, n
        ref = ref + a(i, j) * (i + 0.5d0 * j)
      end do
    end do
    print '(a,i0,a,i0,a,i0,a,es18.10,a,es18.10,a,es12.5)', 'jacobi2d n=', n, ' iters=', iters, ' np=', nprocs, &
      ' checksum=', gsum, ' serial=', ref, ' resid=', resid
    if (abs(gsum - ref) <= 1d-9 * abs(ref)) then
      print '(a)', 'CHECK OK'
    else
      print '(a)', 'CHECK FAILED'
    end if
  end if
  !$bsim keep
  if (rank == 0) print '(a,f12.6,a,f12.6)', 'time_s=', t1 - t0, ' compute_s=', tcomp
  call MPI_Finalize(ierr)

contains

  double precision function bval(i, j, n)
    integer, intent(in) :: i, j, n
    bval = 0
    if (j == n + 1) bval = 1
    if (i == n + 1 .and. j > 0 .and. j <= n) bval = 0.5d0
  end function bval

end program jacobi2d
