! xmpc-test: np=1,2,4
c     fixed form: reductions with .and. .or. max min on scalars and arrays
      program redfix
      implicit none
      include 'xmp_lib.h'
      integer me, np, k, err
      integer v(3)
      logical la, lo
      real r
c$xmp nodes p(*)
      me = xmp_node_num()
      np = xmp_num_nodes()
      la = me .le. np
      lo = me .eq. 1
      r = real(me)
      do 10 k = 1, 3
         v(k) = k * me
   10 continue
c$xmp reduction(.and.:la) reduction(.or.:lo)
c$xmp reduction(min:r)
c$xmp reduction(max:v)
      err = 0
      if (.not. la .or. .not. lo) err = err + 1
      if (r .ne. 1.0) err = err + 1
      do 20 k = 1, 3
         if (v(k) .ne. k * np) err = err + 1
   20 continue
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         stop 1
      endif
      if (me .eq. 1) write(*,*) 'PASS'
      end
