! xmpc-test: np=2,4
c     fixed form: 2-D (block, block) with a loop nest and reflect
      program b2dfix
      implicit none
      include 'xmp_lib.h'
      integer n, m
      parameter (n = 12, m = 10)
      integer i, j, err
      real*8 a(n, m)
c$xmp nodes p(2, *)
c$xmp template t(n, m)
c$xmp distribute t(block, block) onto p
c$xmp align a(i, j) with t(i, j)
c$xmp shadow a(1:1, 1:1)
      err = 0
c$xmp loop (i, j) on t(i, j)
      do 20 j = 1, m
         do 10 i = 1, n
            a(i, j) = dble(i * j)
   10    continue
   20 continue
c$xmp reflect (a)
c$xmp loop (i, j) on t(i, j) reduction(+:err)
      do 40 j = 2, m - 1
         do 30 i = 2, n - 1
            if (a(i-1,j) + a(i+1,j) .ne. 2.0d0*a(i,j)) err = err + 1
            if (a(i,j-1) + a(i,j+1) .ne. 2.0d0*a(i,j)) err = err + 1
   30    continue
   40 continue
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
