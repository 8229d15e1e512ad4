! xmpc-test: np=1,2,4
! gblock on both dimensions of a template (uneven blocks, zero-size blocks) on several
! node shapes: ownership of the loop, reflect across empty blocks, reduction
program gblock2d
  implicit none
  include 'xmp_lib.h'
  integer :: np, err
  err = 0
  np = xmp_num_nodes()
  if (np == 1) then
    call run(1, 1, (/ 10 /), (/ 13 /), err)
  else if (np == 2) then
    call run(2, 1, (/ 7, 3 /), (/ 13 /), err)
    call run(1, 2, (/ 10 /), (/ 0, 13 /), err)
  else if (np == 4) then
    call run(2, 2, (/ 7, 3 /), (/ 6, 7 /), err)
    call run(1, 4, (/ 10 /), (/ 4, 0, 6, 3 /), err)
    call run(4, 1, (/ 3, 0, 0, 7 /), (/ 13 /), err)
  else
    err = 1
  end if
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program gblock2d

subroutine run(px, py, mx, my, err)
  implicit none
  include 'xmp_lib.h'
  integer, intent(in) :: px, py, mx(px), my(py)
  integer, intent(inout) :: err
  integer, parameter :: n1 = 10, n2 = 13
  integer :: i, j, e, cnt, cx, cy, lx, hx, ly, hy
  real(8) :: a(n1, n2), s, want
!$xmp nodes p(px, py)
!$xmp template t(n1, n2)
!$xmp distribute t(gblock(mx), gblock(my)) onto p
!$xmp align a(i, j) with t(i, j)
!$xmp shadow a(1, 1)
  cx = mod(xmp_node_num() - 1, px) + 1
  cy = (xmp_node_num() - 1) / px + 1
  lx = sum(mx(1:cx - 1)) + 1
  hx = lx + mx(cx) - 1
  ly = sum(my(1:cy - 1)) + 1
  hy = ly + my(cy) - 1
  e = 0
  cnt = 0
!$xmp loop on t(i, j)
  do j = 1, n2
    do i = 1, n1
      if (i < lx .or. i > hx .or. j < ly .or. j > hy) e = e + 1
      a(i, j) = i + 100 * j
      cnt = cnt + 1
    end do
  end do
!$xmp reflect (a)
  s = 0
!$xmp loop on t(i, j) reduction(+:s, e)
  do j = 2, n2 - 1
    do i = 2, n1 - 1
      if (a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1) /= 4 * (i + 100 * j)) e = e + 1
      s = s + a(i, j)
    end do
  end do
!$xmp reduction(+:cnt)
  want = 0
  do j = 2, n2 - 1
    do i = 2, n1 - 1
      want = want + i + 100 * j
    end do
  end do
  if (e /= 0 .or. cnt /= n1 * n2 .or. s /= want) then
    print *, 'ERROR run', px, py, e, cnt, s, want
    err = err + 1
  end if
end subroutine run
