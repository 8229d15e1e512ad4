! 2-D Laplace (Jacobi, 5-point), hand-written MPI Fortran: the baseline for the XMP
! Fortran versions, the twin of laplace_mpi.c. A PX x PY Cartesian process grid
! (PX along the contiguous first index i); each process holds its block plus a
! one-element halo, u(i0-1:i0+lnx, j0-1:j0+lny) in global indices. Halos along j
! (whole columns) are contiguous MPI_DOUBLE_PRECISION runs, halos along i (rows)
! use an MPI_Type_vector; see exchange() for the two modes (MPI_PROC_NULL at the
! edges).
!   usage: mpiexec -n P laplace_mpi_f [NX NY ITER PX NHALO MODE]   (default 2048 2048 1000 1 200 1)
!   PX = 1: blocks of columns (laplace_xmp_1d); PX = P: blocks of rows (all halos strided).
! Prints the same lines as laplace_seq.F90; `halo` is the time of the halo exchange,
! `halo1` the median time of one exchange run NHALO times in isolation (each after
! a barrier; the slowest process's median).
program laplace_mpi
  use mpi
  implicit none
  integer :: nx, ny, iter, px, py, nh, mode, np, rank, ierr, cart, rowt, bytes
  integer :: dims(2), coords(2), up, down, left, right, i0, lnx, j0, lny, i, j, k
  integer :: ilo, ihi, jlo, jhi
  logical :: periods(2) = .false.
  real(8), allocatable :: u(:, :), uu(:, :), smp(:)
  real(8), allocatable :: sl(:), sr(:), rl(:), rr(:) ! pack buffers (bytes)
  real(8) :: t0, t1, th, halo, sum, pt, h1, gsum, gpt, ghalo, gh1
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  nx = iarg(1, 2048)
  ny = iarg(2, 2048)
  iter = iarg(3, 1000)
  px = iarg(4, 1)
  nh = iarg(5, 200)
  mode = iarg(6, 1)
  if (px < 1 .or. mod(np, px) /= 0) then
    write (0, '(a,i0,a,i0,a)') 'laplace_mpi_f: PX=', px, ' does not divide ', np, ' processes'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  py = np / px
  dims = [py, px] ! dim 1: along j (columns), dim 2: along i (rows)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Comm_rank(cart, rank, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, up, down, ierr)
  call MPI_Cart_shift(cart, 1, 1, left, right, ierr)
  call split(ny, py, coords(1), j0, lny)
  call split(nx, px, coords(2), i0, lnx)
  allocate (u(i0 - 1:i0 + lnx, j0 - 1:j0 + lny), uu(i0 - 1:i0 + lnx, j0 - 1:j0 + lny))
  ! one element of each of the lny columns: a row of the block
  call MPI_Type_vector(lny, 1, lnx + 2, MPI_DOUBLE_PRECISION, rowt, ierr)
  call MPI_Type_commit(rowt, ierr)
  call MPI_Pack_size(1, rowt, cart, bytes, ierr)
  allocate (sl((bytes + 7) / 8), sr((bytes + 7) / 8), rl((bytes + 7) / 8), rr((bytes + 7) / 8))
  u = 0
  uu = 0
  do j = j0, j0 + lny - 1
    do i = i0, i0 + lnx - 1
      if (j == 0) then
        u(i, j) = 1.0d0
      else if (i == 0) then
        u(i, j) = 0.5d0
      else
        u(i, j) = 0.0d0
      end if
      uu(i, j) = u(i, j)
    end do
  end do
  jlo = max(j0, 1)
  jhi = min(j0 + lny, ny - 1) - 1
  ilo = max(i0, 1)
  ihi = min(i0 + lnx, nx - 1) - 1
  halo = 0
  call MPI_Barrier(cart, ierr)
  t0 = MPI_Wtime()
  do k = 1, iter
    th = MPI_Wtime()
    call exchange()
    halo = halo + (MPI_Wtime() - th)
    do j = jlo, jhi
      do i = ilo, ihi
        uu(i, j) = 0.25d0 * (u(i, j - 1) + u(i, j + 1) + u(i - 1, j) + u(i + 1, j))
      end do
    end do
    do j = jlo, jhi
      do i = ilo, ihi
        u(i, j) = uu(i, j)
      end do
    end do
  end do
  call MPI_Barrier(cart, ierr)
  t1 = MPI_Wtime()
  sum = 0
  pt = 0
  do j = j0, j0 + lny - 1
    do i = i0, i0 + lnx - 1
      sum = sum + u(i, j)
      if (i == nx / 3 .and. j == ny / 3) pt = u(i, j)
    end do
  end do
  call MPI_Reduce(sum, gsum, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart, ierr)
  call MPI_Reduce(pt, gpt, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart, ierr)
  h1 = 0
  if (nh > 0) then
    allocate (smp(nh))
    do k = 1, nh
      call MPI_Barrier(cart, ierr)
      th = MPI_Wtime()
      call exchange()
      smp(k) = MPI_Wtime() - th
    end do
    call sortd(smp)
    h1 = smp(nh / 2 + 1)
  end if
  call MPI_Reduce(halo, ghalo, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)
  call MPI_Reduce(h1, gh1, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)
  if (rank == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,i0)') 'laplace mpi-f ', nx, 'x', ny, ' iter ', iter, &
      ' procs ', np, ' px ', px, ' mode ', mode
    call put('time', '(f20.6)', t1 - t0)
    call put('halo', '(f20.6)', ghalo)
    call put('checksum', '(es23.15)', gsum)
    call put('point', '(es23.15)', gpt)
    call put('halo1', '(f20.9)', gh1)
  end if
  call MPI_Type_free(rowt, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Finalize(ierr)
contains
  ! One halo exchange of u. mode 1 (default): all receives and sends posted at once
  ! (MPI_Irecv/MPI_Isend, MPI_Waitall); rows packed with MPI_Pack of the vector type
  ! and sent as bytes (MPICH's shared-memory path for a non-contiguous send is much
  ! slower than pack + contiguous send). mode 0: MPI_Sendrecv, rows sent with the
  ! vector type directly (the textbook version).
  subroutine exchange()
    integer :: rq(8), n, pos, ie
    integer :: i1, j1
    i1 = i0 + lnx - 1
    j1 = j0 + lny - 1
    if (mode == 0) then
      call MPI_Sendrecv(u(i0, j0), lnx, MPI_DOUBLE_PRECISION, up, 0, u(i0, j1 + 1), lnx, &
        MPI_DOUBLE_PRECISION, down, 0, cart, MPI_STATUS_IGNORE, ie)
      call MPI_Sendrecv(u(i0, j1), lnx, MPI_DOUBLE_PRECISION, down, 1, u(i0, j0 - 1), lnx, &
        MPI_DOUBLE_PRECISION, up, 1, cart, MPI_STATUS_IGNORE, ie)
      if (px > 1) then
        call MPI_Sendrecv(u(i0, j0), 1, rowt, left, 2, u(i1 + 1, j0), 1, rowt, right, 2, cart, &
          MPI_STATUS_IGNORE, ie)
        call MPI_Sendrecv(u(i1, j0), 1, rowt, right, 3, u(i0 - 1, j0), 1, rowt, left, 3, cart, &
          MPI_STATUS_IGNORE, ie)
      end if
      return
    end if
    n = 0
    call MPI_Irecv(u(i0, j1 + 1), lnx, MPI_DOUBLE_PRECISION, down, 0, cart, rq(n + 1), ie)
    call MPI_Irecv(u(i0, j0 - 1), lnx, MPI_DOUBLE_PRECISION, up, 1, cart, rq(n + 2), ie)
    n = n + 2
    if (px > 1) then
      call MPI_Irecv(rr, bytes, MPI_PACKED, right, 2, cart, rq(n + 1), ie)
      call MPI_Irecv(rl, bytes, MPI_PACKED, left, 3, cart, rq(n + 2), ie)
      if (left /= MPI_PROC_NULL) then
        pos = 0
        call MPI_Pack(u(i0, j0), 1, rowt, sl, bytes, pos, cart, ie)
      end if
      if (right /= MPI_PROC_NULL) then
        pos = 0
        call MPI_Pack(u(i1, j0), 1, rowt, sr, bytes, pos, cart, ie)
      end if
      call MPI_Isend(sl, bytes, MPI_PACKED, left, 2, cart, rq(n + 3), ie)
      call MPI_Isend(sr, bytes, MPI_PACKED, right, 3, cart, rq(n + 4), ie)
      n = n + 4
    end if
    call MPI_Isend(u(i0, j0), lnx, MPI_DOUBLE_PRECISION, up, 0, cart, rq(n + 1), ie)
    call MPI_Isend(u(i0, j1), lnx, MPI_DOUBLE_PRECISION, down, 1, cart, rq(n + 2), ie)
    n = n + 2
    call MPI_Waitall(n, rq, MPI_STATUSES_IGNORE, ie)
    if (px > 1) then
      if (right /= MPI_PROC_NULL) then
        pos = 0
        call MPI_Unpack(rr, bytes, pos, u(i1 + 1, j0), 1, rowt, cart, ie)
      end if
      if (left /= MPI_PROC_NULL) then
        pos = 0
        call MPI_Unpack(rl, bytes, pos, u(i0 - 1, j0), 1, rowt, cart, ie)
      end if
    end if
  end subroutine exchange

  ! the XMP block rule: ceil(n/P) per part, 0-based start lo and length len of part r
  subroutine split(n, parts, r, lo, len)
    integer, intent(in) :: n, parts, r
    integer, intent(out) :: lo, len
    integer :: c
    c = (n + parts - 1) / parts
    lo = r * c
    len = max(0, min(c, n - lo))
  end subroutine split

  integer function iarg(k, def)
    integer, intent(in) :: k, def
    character(32) :: a
    iarg = def
    if (command_argument_count() >= k) then
      call get_command_argument(k, a)
      read (a, *) iarg
    end if
  end function iarg

  subroutine put(key, f, x)
    character(*), intent(in) :: key, f
    real(8), intent(in) :: x
    character(40) :: b
    write (b, f) x
    write (*, '(a,1x,a)') key, trim(adjustl(b))
  end subroutine put

  ! insertion sort (NHALO is small)
  subroutine sortd(a)
    real(8), intent(inout) :: a(:)
    integer :: i, j
    real(8) :: v
    do i = 2, size(a)
      v = a(i)
      j = i - 1
      do while (j >= 1)
        if (a(j) <= v) exit
        a(j + 1) = a(j)
        j = j - 1
      end do
      a(j + 1) = v
    end do
  end subroutine sortd
end program laplace_mpi
