! xmpc-test: np=1,2,4,8
! Jacobi on a 2-D grid of images (corank 2, u(..)[px,*]): the west/east halo rows
! are put into the neighbours (strided sections: one row of a column-major block),
! the south/north halo columns are got from them; every image recomputes the whole
! grid sequentially and compares its block (and the halos) bit for bit
program caf_grid2d
  implicit none
  integer, parameter :: m = 6, iters = 5
  real(8), allocatable :: u(:,:)[:,:], g(:,:), h(:,:)
  real(8) :: v(0:m+1, 0:m+1)
  integer :: me, np, px, py, cx, cy, co(2), i, j, it, nx, ny, nerr
  me = this_image()
  np = num_images()
  px = merge(2, 1, mod(np, 2) == 0)
  py = np / px
  nx = px * m
  ny = py * m
  allocate(u(0:m+1, 0:m+1)[px, *], g(0:nx+1, 0:ny+1), h(0:nx+1, 0:ny+1))
  co = this_image(u)
  cx = co(1)
  cy = co(2)
  if (image_index(u, [cx, cy]) /= me) error stop 3
  do j = 0, ny + 1
    do i = 0, nx + 1
      g(i, j) = 0
      if (i >= 1 .and. i <= nx .and. j >= 1 .and. j <= ny) g(i, j) = dble(mod(i * 7 + j * 3, 11))
    end do
  end do
  u = g((cx - 1) * m:cx * m + 1, (cy - 1) * m:cy * m + 1)
  do it = 1, iters
    h = g
    do j = 1, ny
      do i = 1, nx
        h(i, j) = 0.25d0 * (g(i - 1, j) + g(i + 1, j) + g(i, j - 1) + g(i, j + 1))
      end do
    end do
    g = h
    v = u
    do j = 1, m
      do i = 1, m
        v(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
    sync all
    u(1:m, 1:m) = v(1:m, 1:m)
    sync all
    if (cx > 1) u(m + 1, 1:m)[cx - 1, cy] = u(1, 1:m)
    if (cx < px) u(0, 1:m)[cx + 1, cy] = u(m, 1:m)
    if (cy > 1) u(1:m, 0) = u(1:m, m)[cx, cy - 1]
    if (cy < py) u(1:m, m + 1) = u(1:m, 1)[cx, cy + 1]
    sync all
  end do
  nerr = 0
  do j = 0, m + 1
    do i = 0, m + 1
      if ((i == 0 .or. i == m + 1) .and. (j == 0 .or. j == m + 1)) cycle ! corners are not exchanged
      if (u(i, j) /= g((cx - 1) * m + i, (cy - 1) * m + j)) then
        nerr = nerr + 1
        if (nerr < 4) print *, 'ERROR line 58: image', me, i, j, u(i, j)
      end if
    end do
  end do
  call co_sum(nerr)
  if (nerr /= 0) error stop 1
  if (me == 1) print *, 'PASS'
end program caf_grid2d
