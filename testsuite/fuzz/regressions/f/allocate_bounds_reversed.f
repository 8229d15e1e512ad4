! xmpc-test: np=1,2,3,4
c     fixed form: an assumed-shape 2-D dummy aligned (*, block) with the
c     subroutine's own template; a scatter into the shadow columns, then
c     reduce_shadow and a sum reduction inside the subroutine
      program asfix
      implicit none
      include 'xmp_lib.h'
      integer m, n
      parameter (m = 4, n = 14)
      integer i, j, err, s
      integer, allocatable :: a(:, :)
c$xmp nodes p(*)
c$xmp template t(n)
c$xmp distribute t(block) onto p
c$xmp align a(*, j) with t(j)
c$xmp shadow a(0, 1:1)
      allocate(a),m (n)
      call scatr(a, m, n, s)
      err = 0
c     column j gets j from itself and from each existing neighbour column
c$xmp loop on t(j) reduction(+:err)
      do 20 j = 1, n
         do 10 i = 1, m
            if (a(i, j) .ne. i * (j + (j - 1) * min(j - 1, 1)
     &          + (j + 1) * min(n - j, 1))) err = err + 1
   10    continue
   20 continue
c     every column's value i * j went to itself and its neighbours
      if (s .ne. (m * (m + 1) / 2) * (3 * n * (n + 1) / 2 - 1 - n))
     &   err = err + 1000
      if (err .ne. 0) then
         write(*,*) 'ERROR', xmp_node_num(), err
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      contains
      subroutine scatr(x, m, n, s)
      integer m, n, s
      integer x(:, :)
      integer i, j
c$xmp nodes q(*)
c$xmp template tt(n)
c$xmp distribute tt(block) onto q
c$xmp align x(*, j) with tt(j)
c$xmp shadow x(0, 1:1)
c$xmp loop on tt(j)
      do 20 j = 1, n
         do 10 i = 1, m
            x(i, j) = x(i, j) + i * j
            x(i, j - 0) = x(i, j - 1) + i * j
            x(i, j + 1) = x(i, j + 1) + i * j
   10    continue
   20 continue
c$xmp reduce_shadow (x)
      s = 0
 do 40 j = 1, n
         do 30 i = 1, m
            s = s + x(i, j)
   30    continue
   40 continue
      end subroutine scatr
      end
