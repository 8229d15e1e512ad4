! xmpc-test: np=1,2,4
! a 2-D halo exchange with coindexed sections: the grid's columns are split in
! blocks over the images; each Jacobi sweep puts the first and last owned columns
! into the neighbours' halo columns; every image also computes the whole grid
! sequentially and compares its block
program caf_halo2d
  implicit none
  integer, parameter :: nx = 10, ny = 16, iters = 6
  real(8), allocatable :: u(:,:)[:], v(:,:)
  real(8) :: g(0:nx+1, 0:ny+1), h(0:nx+1, 0:ny+1)
  integer :: me, np, w, j0, i, j, it
  me = this_image()
  np = num_images()
  if (mod(ny, np) /= 0) error stop 2
  w = ny / np
  j0 = (me - 1) * w
  allocate(u(0:nx+1, 0:w+1)[*], v(0:nx+1, 0:w+1))
  ! sequential reference on every image
  do j = 0, ny + 1
    do i = 0, nx + 1
      g(i, j) = dble(mod(i * 7 + j * 3, 11))
    end do
  end do
  u = g(:, j0:j0 + w + 1)
  do it = 1, iters
    h = g
    do j = 1, ny
      do i = 1, nx
        h(i, j) = 0.25d0 * (g(i - 1, j) + g(i + 1, j) + g(i, j - 1) + g(i, j + 1))
      end do
    end do
    g = h
    v = u
    do j = 1, w
      do i = 1, nx
        v(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    sync all
    u = v
    sync all
    if (me > 1) u(1:nx, w + 1)[me - 1] = u(1:nx, 1)
    if (me < np) u(1:nx, 0)[me + 1] = u(1:nx, w)
    sync all
  end do
  do j = 0, w + 1
    do i = 0, nx + 1
      if (abs(u(i, j) - g(i, j0 + j)) > 1d-12) then
        print *, 'ERROR line 49: u', me, i, j, u(i, j), g(i, j0 + j)
        error stop 1
      end if
    end do
  end do
  if (me == 1) print *, 'PASS'
end program caf_halo2d
