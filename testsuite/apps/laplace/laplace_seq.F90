! 2-D Laplace (Jacobi, 5-point) solver, plain sequential Fortran: the reference for
! the Fortran versions, and the XMP programs without their directives (same arrays,
! same loops). u(i, j): i (first, contiguous) along NX, j along NY; the same
! arithmetic and layout as laplace_seq.c (u[j][i]).
!   compile: gfortran -O2 -DNX=2048 -DNY=2048 laplace_seq.F90 -o laplace_seq_f
!   usage:   laplace_seq_f [ITER]   (default 1000)
! Prints: time <s of the iteration loop>, halo 0, checksum <sum of u>, and
! point <u at (NX/3, NY/3)>. Boundary u(i,0) = 1, u(0,j) = 0.5, the rest 0.
#ifndef NX
#define NX 2048
#endif
#ifndef NY
#define NY 2048
#endif
program laplace_seq
  implicit none
  integer, parameter :: nx = NX, ny = NY
  real(8) :: u(0:nx-1, 0:ny-1), uu(0:nx-1, 0:ny-1)
  integer :: iter, i, j, k
  integer(8) :: c0, c1, rate
  real(8) :: cpu0, cpu1
  real(8) :: t, sum
  character(32) :: arg
  iter = 1000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iter
  end if
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
  call system_clock(c0, rate)
  call cpu_time(cpu0)
  do k = 1, iter
    do j = 1, ny - 2
      do i = 1, nx - 2
        uu(i, j) = 0.25d0 * (u(i, j - 1) + u(i, j + 1) + u(i - 1, j) + u(i + 1, j))
      end do
    end do
    do j = 1, ny - 2
      do i = 1, nx - 2
        u(i, j) = uu(i, j)
      end do
    end do
  end do
  call system_clock(c1)
  call cpu_time(cpu1)
  t = dble(c1 - c0) / dble(rate)
  sum = 0
  do j = 0, ny - 1
    do i = 0, nx - 1
      sum = sum + u(i, j)
    end do
  end do
  write (*, '(a,i0,a,i0,a,i0,a)') 'laplace seq-f ', nx, 'x', ny, ' iter ', iter, ' procs 1'
  call put('time', '(f20.6)', t)
  call put('cpu', '(f20.6)', cpu1 - cpu0)
  write (*, '(a)') 'halo 0'
  call put('checksum', '(es23.15)', sum)
  call put('point', '(es23.15)', u(nx / 3, ny / 3))
contains
  subroutine put(key, f, x)
    character(*), intent(in) :: key, f
    real(8), intent(in) :: x
    character(40) :: b
    write (b, f) x
    write (*, '(a,1x,a)') key, trim(adjustl(b))
  end subroutine put
end program laplace_seq
