! 2-D Laplace (Jacobi, 5-point), hand-written MPI Fortran: the baseline for the XMP
! Fortran versions, the twin of laplace_mpi.c. A PX x PY Cartesian process grid
! (PX along the contiguous first index i); each process holds its block plus a
! one-element halo, u(i0-1:i0+lnx, j0-1:j0+lny) in global indices. Written as an
! expert would (issue 22: the first version took 1.17-1.24x the sequential time on
! one process): the sweep is a subroutine of explicit-shape dummies with the
! sequential program's loop form (a stencil nest into uu, a copy nest back into u);
! u and uu are one allocation, uu 5 cache lines further modulo 4 KiB than u (two
! page-aligned allocations put u(i, j) and uu(i, j) at the same address modulo
! 4 KiB); both on huge pages. Halos: persistent requests made once (MPI_Recv_init/
! MPI_Send_init), each exchange MPI_Startall + MPI_Waitall; halos along j (whole
! columns) are sent and received in place (contiguous runs), halos along i (rows)
! through contiguous buffers filled and emptied by plain loops (MPICH's
! shared-memory path for a vector datatype is about 3x slower than packing, see
! laplace_mpi.c). That is MODE 1 (default). MODE 0: four MPI_Sendrecv with an
! MPI_Type_vector for rows (the textbook version). MPI_PROC_NULL at the edges.
!   usage: mpiexec -n P laplace_mpi_f [NX NY ITER PX NHALO MODE]   (default 2048 2048 1000 1 200 1)
!   PX = 1: blocks of columns (laplace_xmp_1d); PX = P: blocks of rows (all halos strided).
! Prints the same lines as laplace_seq.F90; `halo` is the time of the halo exchange,
! `halo1` the median time of one exchange run NHALO times in isolation (each after
! a barrier; the slowest process's median).
program laplace_mpi
  use mpi
  implicit none
  integer :: nx, ny, iter, px, py, nh, mode, np, rank, ierr, cart
  integer :: dims(2), coords(2), up, down, left, right, i0, lnx, j0, lny
  integer :: rowt, rq(8), nrq ! the row datatype (mode 0), mode 1's persistent requests
  real(8), allocatable, asynchronous :: sl(:), sr(:), rl(:), rr(:) ! mode 1's row buffers
  integer(8) :: cells, stride
  logical :: periods(2) = .false.
  real(8), allocatable :: store(:)
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
  ! u at store(1), uu at store(1 + stride): cells rounded up to 4 KiB, plus 320 bytes
  cells = int(lnx + 2, 8) * (lny + 2)
  stride = (cells + 511) / 512 * 512 + 40
  allocate (store(stride + cells))
  call advise_huge(store(1), 8 * (stride + cells))
  call solve(store(1), store(1 + stride))
  call MPI_Comm_free(cart, ierr)
  call MPI_Finalize(ierr)
contains
  ! The whole run on u and uu (explicit shape: the halo ring included).
  subroutine solve(u, uu)
    real(8), intent(inout) :: u(i0 - 1:i0 + lnx, j0 - 1:j0 + lny), uu(i0 - 1:i0 + lnx, j0 - 1:j0 + lny)
    integer :: i, j, k, ilo, ihi, jlo, jhi
    real(8) :: t0, t1, th, halo, sum, pt, h1, gsum, gpt, ghalo, gh1
    real(8) :: cpu0, cpu1
    real(8), allocatable :: smp(:)
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
    ! one element of each of the lny columns: a row of the block
    call MPI_Type_vector(lny, 1, lnx + 2, MPI_DOUBLE_PRECISION, rowt, ierr)
    call MPI_Type_commit(rowt, ierr)
    call halo_init(u)
    jlo = max(j0, 1)
    jhi = min(j0 + lny, ny - 1) - 1
    ilo = max(i0, 1)
    ihi = min(i0 + lnx, nx - 1) - 1
    halo = 0
    call MPI_Barrier(cart, ierr)
    t0 = MPI_Wtime()
    call cpu_time(cpu0)
    do k = 1, iter
      th = MPI_Wtime()
      call exchange(u)
      halo = halo + (MPI_Wtime() - th)
      call sweep(u, uu, i0 - 1, i0 + lnx, j0 - 1, j0 + lny, ilo, ihi, jlo, jhi)
    end do
    call MPI_Barrier(cart, ierr)
    t1 = MPI_Wtime()
    call cpu_time(cpu1)
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
        call exchange(u)
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
      call put('cpu', '(f20.6)', cpu1 - cpu0)
      call put('halo', '(f20.6)', ghalo)
      call put('checksum', '(es23.15)', gsum)
      call put('point', '(es23.15)', gpt)
      call put('halo1', '(f20.9)', gh1)
    end if
    do k = 1, nrq
      call MPI_Request_free(rq(k), ierr)
    end do
    call MPI_Type_free(rowt, ierr)
  end subroutine solve

  ! mode 1: the persistent requests of one exchange (receives first)
  subroutine halo_init(u)
    real(8), intent(inout), asynchronous :: u(i0 - 1:i0 + lnx, j0 - 1:j0 + lny)
    integer :: i1, j1
    i1 = i0 + lnx - 1
    j1 = j0 + lny - 1
    nrq = 0
    if (mode == 0) return
    call MPI_Recv_init(u(i0, j1 + 1), lnx, MPI_DOUBLE_PRECISION, down, 0, cart, rq(nrq + 1), ierr)
    call MPI_Recv_init(u(i0, j0 - 1), lnx, MPI_DOUBLE_PRECISION, up, 1, cart, rq(nrq + 2), ierr)
    nrq = nrq + 2
    if (px > 1) then
      allocate (sl(lny), sr(lny), rl(lny), rr(lny))
      call MPI_Recv_init(rr, lny, MPI_DOUBLE_PRECISION, right, 2, cart, rq(nrq + 1), ierr)
      call MPI_Recv_init(rl, lny, MPI_DOUBLE_PRECISION, left, 3, cart, rq(nrq + 2), ierr)
      call MPI_Send_init(sl, lny, MPI_DOUBLE_PRECISION, left, 2, cart, rq(nrq + 3), ierr)
      call MPI_Send_init(sr, lny, MPI_DOUBLE_PRECISION, right, 3, cart, rq(nrq + 4), ierr)
      nrq = nrq + 4
    end if
    call MPI_Send_init(u(i0, j0), lnx, MPI_DOUBLE_PRECISION, up, 0, cart, rq(nrq + 1), ierr)
    call MPI_Send_init(u(i0, j1), lnx, MPI_DOUBLE_PRECISION, down, 1, cart, rq(nrq + 2), ierr)
    nrq = nrq + 2
  end subroutine halo_init

  ! One halo exchange of u, in place.
  subroutine exchange(u)
    real(8), intent(inout), asynchronous :: u(i0 - 1:i0 + lnx, j0 - 1:j0 + lny)
    integer :: i1, j1, j
    i1 = i0 + lnx - 1
    j1 = j0 + lny - 1
    if (mode /= 0) then
      if (px > 1) then
        do j = 1, lny
          sl(j) = u(i0, j0 + j - 1)
          sr(j) = u(i1, j0 + j - 1)
        end do
      end if
      call MPI_Startall(nrq, rq, ierr)
      call MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE, ierr)
      if (px > 1) then
        if (right /= MPI_PROC_NULL) then
          do j = 1, lny
            u(i1 + 1, j0 + j - 1) = rr(j)
          end do
        end if
        if (left /= MPI_PROC_NULL) then
          do j = 1, lny
            u(i0 - 1, j0 + j - 1) = rl(j)
          end do
        end if
      end if
      return
    end if
    call MPI_Sendrecv(u(i0, j0), lnx, MPI_DOUBLE_PRECISION, up, 0, u(i0, j1 + 1), lnx, &
      MPI_DOUBLE_PRECISION, down, 0, cart, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(i0, j1), lnx, MPI_DOUBLE_PRECISION, down, 1, u(i0, j0 - 1), lnx, &
      MPI_DOUBLE_PRECISION, up, 1, cart, MPI_STATUS_IGNORE, ierr)
    if (px > 1) then
      call MPI_Sendrecv(u(i0, j0), 1, rowt, left, 2, u(i1 + 1, j0), 1, rowt, right, 2, cart, &
        MPI_STATUS_IGNORE, ierr)
      call MPI_Sendrecv(u(i1, j0), 1, rowt, right, 3, u(i0 - 1, j0), 1, rowt, left, 3, cart, &
        MPI_STATUS_IGNORE, ierr)
    end if
  end subroutine exchange

  ! One Jacobi step over [ilo, ihi] x [jlo, jhi]: the sequential loop form.
  subroutine sweep(u, uu, il, iu, jl, ju, ilo, ihi, jlo, jhi)
    integer, intent(in) :: il, iu, jl, ju, ilo, ihi, jlo, jhi
    real(8), intent(inout) :: u(il:iu, jl:ju), uu(il:iu, jl:ju)
    integer :: i, j
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
  end subroutine sweep

  ! Huge pages advised on the 2 MiB-aligned interior of the pool before its first
  ! touch (as xmpc's runtime does for its arrays): a stencil streaming many arrays
  ! otherwise takes a TLB miss per 4 KiB page and stream, each a two-level walk
  ! under virtualisation.
  subroutine advise_huge(first, bytes)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_intptr_t, c_size_t, c_int
    real(8), target, intent(in) :: first
    integer(8), intent(in) :: bytes
    interface
      integer(c_int) function madvise(addr, length, advice) bind(C, name='madvise')
        import :: c_intptr_t, c_size_t, c_int
        integer(c_intptr_t), value :: addr
        integer(c_size_t), value :: length
        integer(c_int), value :: advice
      end function madvise
    end interface
    integer(c_intptr_t), parameter :: huge = 2 * 1024 * 1024
    integer(c_int), parameter :: madv_hugepage = 14
    integer(c_intptr_t) :: lo, hi
    integer(c_int) :: rc
    lo = transfer(c_loc(first), lo)
    hi = (lo + bytes) / huge * huge
    lo = (lo + huge - 1) / huge * huge
    if (hi > lo) rc = madvise(lo, int(hi - lo, c_size_t), madv_hugepage)
  end subroutine advise_huge

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
