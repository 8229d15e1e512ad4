! 2-D Laplace (Jacobi, 5-point) in XcalableMP Fortran, 2-D block decomposition:
! template t(0:NX-1, 0:NY-1) distributed (block, block) onto p(PX, *), shadow
! u(1, 1). The first index i is contiguous: halos along j (whole columns) are
! contiguous, halos along i (rows u(i, :)) strided. PX (default 2) is the number
! of nodes along i: with PX = P the decomposition is by rows only, so every halo
! is strided. The Fortran twin of laplace_xmp_2d.c.
!   compile: xmpc -O2 -DNX=2048 -DNY=2048 -DPX=2 laplace_xmp_2d.F90 -o laplace_xmp_2d
!   usage:   mpiexec -n P laplace_xmp_2d [ITER [NHALO]]   (default 1000 200)
! Prints the same lines as laplace_seq.F90; `halo` is the total time of the
! reflects; `halo1` the median time of one reflect run NHALO times in isolation
! (each after a barrier; the slowest node's median).
#ifndef NX
#define NX 2048
#endif
#ifndef NY
#define NY 2048
#endif
#ifndef PX
#define PX 2
#endif
program laplace_xmp_2d
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: nx = NX, ny = NY, px = PX
  real(8) :: u(0:nx-1, 0:ny-1), uu(0:nx-1, 0:ny-1)
!$xmp nodes p(px, *)
!$xmp template t(0:nx-1, 0:ny-1)
!$xmp distribute t(block, block) onto p
!$xmp align (i, j) with t(i, j) :: u, uu
!$xmp shadow u(1, 1)
  integer :: iter, nh, i, j, k
  real(8) :: t0, t1, th, halo, sum, pt, h1
  real(8) :: cpu0, cpu1
  real(8), allocatable :: smp(:)
  character(32) :: arg
  iter = 1000
  nh = 200
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iter
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) nh
  end if
  halo = 0
  sum = 0
  pt = 0
  h1 = 0
!$xmp loop (i, j) on t(i, j)
  do j = 0, ny - 1
    do i = 0, nx - 1
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
!$xmp barrier
  t0 = xmp_wtime()
  call cpu_time(cpu0)
  do k = 1, iter
    th = xmp_wtime()
!$xmp reflect (u)
    halo = halo + (xmp_wtime() - th)
!$xmp loop (i, j) on t(i, j)
    do j = 1, ny - 2
      do i = 1, nx - 2
        uu(i, j) = 0.25d0 * (u(i, j - 1) + u(i, j + 1) + u(i - 1, j) + u(i + 1, j))
      end do
    end do
!$xmp loop (i, j) on t(i, j)
    do j = 1, ny - 2
      do i = 1, nx - 2
        u(i, j) = uu(i, j)
      end do
    end do
  end do
!$xmp barrier
  t1 = xmp_wtime()
  call cpu_time(cpu1)
!$xmp loop (i, j) on t(i, j) reduction(+:sum, pt)
  do j = 0, ny - 1
    do i = 0, nx - 1
      sum = sum + u(i, j)
      if (i == nx / 3 .and. j == ny / 3) pt = u(i, j)
    end do
  end do
  if (nh > 0) then
    allocate (smp(nh))
    do k = 1, nh
!$xmp barrier
      th = xmp_wtime()
!$xmp reflect (u)
      smp(k) = xmp_wtime() - th
    end do
    call sortd(smp)
    h1 = smp(nh / 2 + 1)
    deallocate (smp)
  end if
!$xmp reduction(max:halo, h1)
  if (xmp_node_num() == 1) then
    write (*, '(a,i0,a,i0,a,i0,a,i0)') 'laplace xmp-f-2d ', nx, 'x', ny, ' iter ', iter, &
      ' procs ', xmp_num_nodes()
    call put('time', '(f20.6)', t1 - t0)
    call put('cpu', '(f20.6)', cpu1 - cpu0)
    call put('halo', '(f20.6)', halo)
    call put('checksum', '(es23.15)', sum)
    call put('point', '(es23.15)', pt)
    call put('halo1', '(f20.9)', h1)
  end if
contains
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
end program laplace_xmp_2d
