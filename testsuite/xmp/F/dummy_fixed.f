! xmpc-test: np=1,2,4
c     fixed form: aligned dummy arguments of a 2-D (*, block) array
      program dmyfix
      implicit none
      include 'xmp_lib.h'
      integer n, m
      parameter (n = 4, m = 18)
      integer i, j, s
      integer a(n, m)
c$xmp nodes p(*)
c$xmp template t(m)
c$xmp distribute t(block) onto p
c$xmp align a(*, j) with t(j)
      call fill(a, n, m)
      s = 0
c$xmp loop on t(j) reduction(+:s)
      do 20 j = 1, m
         do 10 i = 1, n
            s = s + a(i, j)
   10    continue
   20 continue
      if (s .ne. (n * (n + 1) / 2) * (m * (m + 1) / 2)) then
         write(*,*) 'ERROR', s
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end

      subroutine fill(x, n, m)
      implicit none
      integer n, m, i, j
      integer x(n, m)
c$xmp nodes q(*)
c$xmp template tt(m)
c$xmp distribute tt(block) onto q
c$xmp align x(*, j) with tt(j)
c$xmp loop on tt(j)
      do 20 j = 1, m
         do 10 i = 1, n
            x(i, j) = i * j
   10    continue
   20 continue
      end
