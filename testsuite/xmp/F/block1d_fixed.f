! xmpc-test: np=1,2,4
c     fixed form: block distribution, loop, reduction (c$xmp sentinel)
      program blkfix
      implicit none
      include 'xmp_lib.h'
      integer n
      parameter (n = 64)
      integer i, err
      double precision a(n), s
c$xmp nodes p(*)
c$xmp template t(n)
c$xmp distribute t(block) onto p
c$xmp align a(i) with t(i)
      err = 0
      s = 0
c$xmp loop on t(i)
      do 10 i = 1, n
         a(i) = dble(i)
   10 continue
c$xmp loop on t(i) reduction(+:s)
      do 20 i = 1, n
         s = s + a(i)
   20 continue
      if (s .ne. dble(n * (n + 1) / 2)) err = 1
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', s
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
