! xmpc-test: np=1,2,4
c     fixed form: a loop nest sharing one DO termination label, and a
c     sequential outer loop around a distributed inner loop with a reduction
      program shlab
      implicit none
      include 'xmp_lib.h'
      integer n, m
      parameter (n = 12, m = 5)
      integer i, j, s, e, ps
      integer a(n, m), b(n)
c$xmp nodes p(*)
c$xmp template t(m)
c$xmp template u(n)
c$xmp distribute t(block) onto p
c$xmp distribute u(cyclic) onto p
c$xmp align a(*, j) with t(j)
c$xmp align b(i) with u(i)
c$xmp loop (j) on t(j)
      do 10 j = 1, m
      do 10 i = 1, n
         a(i, j) = i + j
   10 continue
      s = 0
      do 30 j = 1, 3
         ps = 0
c$xmp loop (i) on u(i) reduction(+:ps)
         do 20 i = 1, n
            b(i) = j * i
            ps = ps + b(i)
   20    continue
         s = s + ps
   30 continue
      e = 0
c$xmp loop (j) on t(j) reduction(+:e)
      do 40 j = 1, m
      do 40 i = 1, n
         e = e + a(i, j)
   40 continue
      if (s .ne. 6 * n * (n + 1) / 2
     &    .or. e .ne. m * n * (n + 1) / 2 + n * m * (m + 1) / 2) then
         write(*,*) 'ERROR', s, e
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
