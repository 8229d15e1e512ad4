! xmpc-test: np=1,2,3,4
c     fixed form: gmove between a cyclic array and a block array, and
c     from the cyclic array into a local one (long calls re-wrapped)
      program gmvcyc
      implicit none
      include 'xmp_lib.h'
      integer n, i, err
      parameter (n = 17)
      integer a(n), b(n), w(n)
c$xmp nodes p(*)
c$xmp template t(n)
c$xmp template tb(n)
c$xmp distribute t(cyclic) onto p
c$xmp distribute tb(block) onto p
c$xmp align a(i) with t(i)
c$xmp align b(i) with tb(i)
c$xmp loop on tb(i)
      do 10 i = 1, n
         b(i) = i * i
   10 continue
c$xmp gmove
      a(n:1:-1) = b(1:n)
      err = 0
c$xmp loop on t(i) reduction(+:err)
      do 20 i = 1, n
         if (a(i) .ne. (n + 1 - i) ** 2) err = err + 1
   20 continue
c$xmp gmove
      w(1:n) = a(1:n)
      do 30 i = 1, n
         if (w(i) .ne. (n + 1 - i) ** 2) err = err + 1
   30 continue
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
