! 3-D Jacobi (7-point stencil) on an n^3 grid split into z-slabs, halo planes exchanged
! with MPI_Irecv/MPI_Isend/MPI_Waitall. Fixed-size arrays (the skeleton's memory cut
! removes them). Self-check: rank 0 reruns the iterations serially.
! Usage: jacobi3d [iters]
program jacobi3d
  use mpi
  implicit none
  integer, parameter :: n = 40, plane = (n + 2) * (n + 2)
  double precision :: u(0:n+1, 0:n+1, 0:n+1), unew(0:n+1, 0:n+1, 0:n+1)
  double precision :: r(0:n+1, 0:n+1, 0:n+1), r2(0:n+1, 0:n+1, 0:n+1)
  double precision :: s, gsum, check, t0, t1, tc0, tcomp
  integer :: iters, rank, nprocs, nz, first, lo, hi, it, i, j, k, ierr
  integer :: req(4), st(MPI_STATUS_SIZE, 4)
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  iters = 20
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  lo = rank - 1
  if (rank == 0) lo = MPI_PROC_NULL
  hi = rank + 1
  if (rank == nprocs - 1) hi = MPI_PROC_NULL
  tcomp = 0
  nz = n / nprocs
  if (rank < mod(n, nprocs)) nz = nz + 1
  first = rank * (n / nprocs) + min(rank, mod(n, nprocs))
  do k = 0, nz + 1
    do j = 0, n + 1
      do i = 0, n + 1
        u(i, j, k) = init(i, j, first + k)
      end do
    end do
  end do
  unew = u

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do it = 1, iters
    call MPI_Irecv(u(0, 0, 0), plane, MPI_DOUBLE_PRECISION, lo, 0, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Irecv(u(0, 0, nz + 1), plane, MPI_DOUBLE_PRECISION, hi, 1, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Isend(u(0, 0, 1), plane, MPI_DOUBLE_PRECISION, lo, 1, MPI_COMM_WORLD, req(3), ierr)
    call MPI_Isend(u(0, 0, nz), plane, MPI_DOUBLE_PRECISION, hi, 0, MPI_COMM_WORLD, req(4), ierr)
    call MPI_Waitall(4, req, st, ierr)
    tc0 = MPI_Wtime()
    do k = 1, nz
      do j = 1, n
        do i = 1, n
          unew(i, j, k) = (u(i-1, j, k) + u(i+1, j, k) + u(i, j-1, k) + u(i, j+1, k) &
                           + u(i, j, k-1) + u(i, j, k+1)) / 6d0
        end do
      end do
    end do
    u(1:n, 1:n, 1:nz) = unew(1:n, 1:n, 1:nz)
    tcomp = tcomp + (MPI_Wtime() - tc0)
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t1 = MPI_Wtime()

  s = 0
  do k = 1, nz
    do j = 1, n
      do i = 1, n
        s = s + u(i, j, k) * ((first + k) + 0.1d0 * j + 0.01d0 * i)
      end do
    end do
  end do
  call MPI_Reduce(s, gsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    do k = 0, n + 1
      do j = 0, n + 1
        do i = 0, n + 1
          r(i, j, k) = init(i, j, k)
        end do
      end do
    end do
    r2 = r
    do it = 1, iters
      do k = 1, n
        do j = 1, n
          do i = 1, n
            r2(i, j, k) = (r(i-1, j, k) + r(i+1, j, k) + r(i, j-1, k) + r(i, j+1, k) &
                           + r(i, j, k-1) + r(i, j, k+1)) / 6d0
          end do
        end do
      end do
      r(1:n, 1:n, 1:n) = r2(1:n, 1:n, 1:n)
    end do
    check = 0
    do k = 1, n
      do j = 1, n
        do i = 1, n
          check = check + r(i, j, k) * (k + 0.1d0 * j + 0.01d0 * i)
        end do
      end do
    end do
    print '(a,i0,a,i0,a,i0,a,es18.10,a,es18.10)', 'jacobi3d n=', n, ' iters=', iters, ' np=', nprocs, &
      ' checksum=', gsum, ' serial=', check
    if (abs(gsum - check) <= 1d-9 * abs(check)) then
      print '(a)', 'CHECK OK'
    else
      print '(a)', 'CHECK FAILED'
    end if
  end if
  !$bsim keep
  if (rank == 0) print '(a,f12.6,a,f12.6)', 'time_s=', t1 - t0, ' compute_s=', tcomp
  call MPI_Finalize(ierr)

contains

  double precision function init(i, j, k)
    integer, intent(in) :: i, j, k
    init = 0
    if (i == 0 .or. i == n + 1 .or. j == 0 .or. j == n + 1 .or. k == 0 .or. k == n + 1) init = 1 + 0.01d0 * i
  end function init

end program jacobi3d
