! xmpc-test: np=1,2,4
c     fixed form 2-D Jacobi on (*, block) with shadows on dim 2 only
      program jac2d
      implicit none
      include 'xmp_lib.h'
      integer n, m, iters
      parameter (n = 10, m = 16, iters = 10)
      integer i, j, it
      double precision u(n, m), un(n, m)
      double precision su(n, m), sn(n, m), diff
c$xmp nodes p(*)
c$xmp template t(m)
c$xmp distribute t(block) onto p
c$xmp align u(*, j) with t(j)
c$xmp align un(*, j) with t(j)
c$xmp shadow u(0, 1:1)
      do 20 j = 1, m
         do 10 i = 1, n
            su(i, j) = dble(mod(i + 3 * j, 7))
   10    continue
   20 continue
      sn = su
      do 50 it = 1, iters
         do 40 j = 2, m - 1
            do 30 i = 2, n - 1
               sn(i, j) = 0.25d0 * (su(i-1, j) + su(i+1, j)
     &                  + su(i, j-1) + su(i, j+1))
   30       continue
   40    continue
         su = sn
   50 continue
c$xmp loop on t(j)
      do 70 j = 1, m
         do 60 i = 1, n
            u(i, j) = dble(mod(i + 3 * j, 7))
            un(i, j) = u(i, j)
   60    continue
   70 continue
      do 100 it = 1, iters
c$xmp reflect (u)
c$xmp loop on t(j)
         do 90 j = 2, m - 1
            do 80 i = 2, n - 1
               un(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j)
     &                  + u(i, j-1) + u(i, j+1))
   80       continue
   90    continue
c$xmp loop on t(j)
         do 95 j = 2, m - 1
            u(2:n-1, j) = un(2:n-1, j)
   95    continue
  100 continue
      diff = 0.0d0
c$xmp loop on t(j) reduction(max:diff)
      do 120 j = 1, m
         do 110 i = 1, n
            diff = max(diff, abs(u(i, j) - su(i, j)))
  110    continue
  120 continue
      if (diff .gt. 1.0d-12) then
         write(*,*) 'ERROR', diff
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
