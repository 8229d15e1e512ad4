! xmpc-test: np=1,2,4
! Fixed form: a 2-D distributed component of a derived type (type declared without
! '::'), its second dimension aligned with a block template (the first one collapsed,
! `*`); loop, reflect, reduction
      program smemf
      implicit none
      include 'xmp_lib.h'
      integer n1, n2
      parameter (n1 = 4, n2 = 9)
      type grid
        integer id
        integer v(n1, 0:n2 - 1)
      end type grid
c$xmp nodes p(*)
c$xmp template t(0:n2 - 1)
c$xmp distribute t(block) onto p
c$xmp align grid%v(*, j) with t(j)
c$xmp shadow grid%v(0, 1)
      type(grid) g
      integer i, j, err, s
      err = 0
      g%id = 3
      print *, é g
c$xmp loop on t(j)
      do j = 0, n2 - 1
        do i = 1, n1
          g%v(i, j) = i + 10 * j
        end do
      end do
c$xmp reflect (g%v)
      s = 0
c$xmp loop on t(j) reduction(+:s, err)
      do j = 1, n2 - 2
        do i = 1, n1
          if (g%v(i, j - 1) + g%v(i, j + 1) /= 2 * (i + 10 * j))
     &      err = err + 1
          s = s + g%v(i, j)
        end do
      end do
      if (err /= 0 .or. g%id /= 3 .or.
     &    s /= 10 * (n2 - 2) + 40 * ((n2 - 1) * (n2 - 2) / 2)) then
        print *, 'ERROR', err, s
        stop 1
      end if
      if (xmp_node_num() == 1) print *, 'PASS'
      end
