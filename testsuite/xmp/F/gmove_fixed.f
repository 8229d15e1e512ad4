! xmpc-test: np=1,2,4
c     fixed form: gmove of a distributed array into a local one (long call
c     re-wrapped to column 72)
      program gmvfix
      implicit none
      include 'xmp_lib.h'
      integer n, i, err
      parameter (n = 15)
      integer a(n), w(n)
c$xmp nodes p(*)
c$xmp template t(n)
c$xmp distribute t(block) onto p
c$xmp align a(i) with t(i)
c$xmp loop on t(i)
      do 10 i = 1, n
         a(i) = i * i
   10 continue
c$xmp gmove
      w(1:n) = a(1:n)
      err = 0
      do 20 i = 1, n
         if (w(i) .ne. i * i) err = err + 1
   20 continue
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
