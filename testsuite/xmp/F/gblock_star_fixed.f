! xmpc-test: np=1,2,4
! Fixed form: gblock(*) on the second dimension of a 2-D template (the first one not
! distributed), the mapping array given by template_fix(*, gblock(m)); a zero-size
! block on 2 and 4 nodes; loop, reflect, reduction
      program gstarf
      implicit none
      include 'xmp_lib.h'
      integer n1
      parameter (n1 = 5)
      integer i, j, n, np, me, k, lo, hi, err, cnt
      integer, allocatable :: m(:)
      integer, allocatable :: a(:, :)
      integer s
c$xmp nodes p(*)
c$xmp template t(:, :)
c$xmp distribute t(*, gblock(*)) onto p
c$xmp align a(i, j) with t(i, j)
c$xmp shadow a(0, 1)
      np = xmp_num_nodes()
      me = xmp_node_num()
      allocate(m(np))
      do k = 1, np
        m(k) = k + 2
      end do
      if (np > 1) m(np) = 0
      n = sum(m)
c$xmp template_fix(*, gblock(m))
c$xmp&  t(n1, n)
      allocate(a(n1, n))
      lo = sum(m(1:me - 1)) + 1
      hi = lo + m(me) - 1
      err = 0
      cnt = 0
c$xmp loop (j) on t(*, j)
      do j = 1, n
        if (j < lo .or. j > hi) err = err + 1
        do i = 1, n1
          a(i, j) = i + 10 * j
          cnt = cnt + 1
        end do
      end do
c$xmp reflect (a)
      s = 0
c$xmp loop (j) on t(*, j) reduction(+:s, err)
      do j = 2, n - 1
        do i = 1, n1
          if (a(i, j - 1) + a(i, j + 1) /= 2 * (i + 10 * j)) then
            err = err + 1
          end if
          s = s + a(i, j)
        end do
      end do
c$xmp reduction(+:cnt)
      if (err /= 0 .or. cnt /= n1 * n .or.
     &    s /= 15 * (n - 2) + 50 * (n * (n - 1) / 2 - 1)) then
        print *, 'ERROR', err, cnt, s
        stop 1
      end if
      if (me == 1) print *, 'PASS'
      end
