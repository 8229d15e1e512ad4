! 1次元ラプラス方程式（ヤコビ法）。block 分散、幅 1 のシャドウを reflect で更新。
! 結果は各ノードで冗長に計算した逐次版と比較する。
!
! xmpc-test: np=4
program japanese_comments
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 256, niter = 50
  real(8) :: u(n), uu(n), s(n), ss(n)   ! 分散配列と逐次版の配列
  real(8) :: diff
  integer :: i, k
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align u(i) with t(i)
!$xmp align uu(i) with t(i)
!$xmp shadow uu(1:1)   ! 上下に 1 要素ずつ

  ! 初期値：両端を 1、内部を 0 とする
!$xmp loop on t(i)
  do i = 1, n
    u(i) = 0.0d0
    if (i == 1 .or. i == n) u(i) = 1.0d0
    uu(i) = u(i)
  end do
  s = 0.0d0
  s(1) = 1.0d0
  s(n) = 1.0d0
  ss = s

  do k = 1, niter
!$xmp reflect (uu)
!$xmp loop on t(i)
    do i = 2, n - 1
      u(i) = 0.5d0 * (uu(i - 1) + uu(i + 1))   ! 隣の平均
    end do
!$xmp loop on t(i)
    do i = 2, n - 1
      uu(i) = u(i)
    end do
    ! 逐次版
    do i = 2, n - 1
      s(i) = 0.5d0 * (ss(i - 1) + ss(i + 1))
    end do
    ss(2:n-1) = s(2:n-1)
  end do

  diff = 0.0d0
!$xmp loop on t(i) reduction(max: diff)
  do i = 1, n
    diff = max(diff, abs(uu(i) - ss(i)))
  end do
  if (diff > 1.0d-12) then
    if (xmp_node_num() == 1) print *, 'FAIL（不一致）', diff
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program japanese_comments
