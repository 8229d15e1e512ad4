! xmpc-test: np=1,2,4
c     fixed form: cyclic template, loop with a step, reduction on the loop
      program cycfix
      implicit none
      include 'xmp_lib.h'
      integer n, i, s, e
      parameter (n = 45)
      integer a(n)
c$xmp nodes p(*)
c$xmp template t(n)
c$xmp distribute t(cyclic) onto p
c$xmp align a(i) with t(i)
c$xmp loop on t(i)
      do 10 i = 1, n
         a(i) = 3 * i
   10 continue
      s = 0
c$xmp loop on t(i) reduction(+:s)
      do 20 i = 1, n, 4
         s = s + a(i)
   20 continue
      e = 0
      do 30 i = 1, n, 4
         e = e + 3 * i
   30 continue
      if (s .ne. e) then
         write(*,*) 'ERROR', s, e
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
