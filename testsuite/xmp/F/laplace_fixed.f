! xmpc-test: np=1,2,4
c     fixed form 1-D Jacobi with shadow/reflect, checked against a serial run
      program lapfix
      implicit none
      include 'xmp_lib.h'
      integer n, iters
      parameter (n = 50, iters = 30)
      integer i, it
      double precision u(n), un(n)
      double precision su(n), sn(n), diff
c$xmp nodes p(*)
c$xmp template t(n)
c$xmp distribute t(block) onto p
c$xmp align u(i) with t(i)
c$xmp align un(i) with t(i)
c$xmp shadow u(1:1)
      do 10 i = 1, n
         su(i) = dble(mod(i * 7, 11))
         sn(i) = su(i)
   10 continue
      do 30 it = 1, iters
         do 20 i = 2, n - 1
            sn(i) = 0.5d0 * (su(i - 1) + su(i + 1))
   20    continue
         do 25 i = 2, n - 1
            su(i) = sn(i)
   25    continue
   30 continue
c$xmp loop on t(i)
      do 40 i = 1, n
         u(i) = dble(mod(i * 7, 11))
         un(i) = u(i)
   40 continue
      do 70 it = 1, iters
c$xmp reflect (u)
c$xmp loop on t(i)
         do 50 i = 2, n - 1
            un(i) = 0.5d0 * (u(i - 1) + u(i + 1))
   50    continue
c$xmp loop on t(i)
         do 60 i = 2, n - 1
            u(i) = un(i)
   60    continue
   70 continue
      diff = 0.0d0
c$xmp loop on t(i) reduction(max:diff)
      do 80 i = 1, n
         diff = max(diff, abs(u(i) - su(i)))
   80 continue
      if (diff .gt. 1.0d-12) then
         write(*,*) 'ERROR', diff
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
