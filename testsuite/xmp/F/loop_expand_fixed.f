! xmpc-test: np=1,2,4
c     fixed form: loop ... expand on labelled DO loops (the one-loop schedule form)
      program lexpfx
      implicit none
      include 'xmp_lib.h'
      integer n
      parameter (n = 20)
      integer i, lo, hi, err, cnt, isum, wc, ws, a(n)
c$xmp nodes p(*)
c$xmp template t(n)
c$xmp distribute t(block) onto p
c$xmp align a(i) with t(i)
c$xmp shadow a(1)
      err = 0
      lo = n + 1
      hi = 0
c$xmp loop on t(i)
      do 10 i = 1, n
         lo = min(lo, i)
         hi = max(hi, i)
         a(i) = i
   10 continue
      cnt = 0
      isum = 0
c$xmp loop on t(i) expand(1:0)
      do 20 i = 2, n
         cnt = cnt + 1
         isum = isum + i
   20 continue
      wc = 0
      ws = 0
      do 30 i = max(lo - 1, 2), hi
         wc = wc + 1
         ws = ws + i
   30 continue
      if (cnt .ne. wc .or. isum .ne. ws) err = 1
      cnt = 0
c$xmp loop on t(i) expand(/unbound/1)
      do 40 i = 1, n
         cnt = cnt + 1
   40 continue
      if (cnt .ne. hi - lo + 3) err = err + 10
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
