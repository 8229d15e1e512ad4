! xmpc-test: np=2
c     fixed form: gblock with a mapping array
      program gbfix
      implicit none
      include 'xmp_lib.h'
      integer n, i, cnt, err
      parameter (n = 10)
      integer m(2)
      integer a(n)
      data m /7, 3/
c$xmp nodes p(2)
c$xmp template t(n)
c$xmp distribute t(gblock(m)) onto p
c$xmp align a(i) with t(i)
      cnt = 0
c$xmp loop on t(i)
      do 10 i = 1, n
         a(i) = i
         cnt = cnt + 1
   10 continue
      err = 0
      if (cnt .ne. m(xmp_node_num())) err = 1
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', cnt
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
