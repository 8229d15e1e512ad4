c     EP-like kernel: pseudo-random pairs counted per annulus, with
c     reductions (+, max, min) on c$xmp loop / reduction directives, a
c     task that prints from one node, and a barrier.
c
c     xmpc-test: np=4
      program ep
      implicit none
      include 'xmp_lib.h'
      integer nk, nq
      parameter (nk = 4096, nq = 10)
      integer i, l, q(0:nq-1), sq(0:nq-1), seed, nerr
      double precision x, y, r2, sx, sy, ssx, ssy, tmax, tmin, stmax
      integer iseed(nk)
c$xmp nodes p(*)
c$xmp template t(nk)
c$xmp distribute t(block) onto p
c$xmp align iseed(i) with t(i)
c$xmp loop on t(i)
      do 5 i = 1, nk
         iseed(i) = mod(i * 1103 + 12345, 65536)
    5 continue
      do 6 l = 0, nq - 1
         q(l) = 0
    6 continue
      sx = 0.0d0
      sy = 0.0d0
      tmax = 0.0d0
c$xmp loop on t(i) reduction(+: sx, sy)
      do 10 i = 1, nk
         seed = iseed(i)
         x = 2.0d0 * dble(mod(seed * 75, 65537)) / 65537.0d0 - 1.0d0
         y = 2.0d0 * dble(mod(seed * 77, 65539)) / 65539.0d0 - 1.0d0
         r2 = x * x + y * y
         if (r2 .le. 1.0d0) then
            l = min(int(r2 * nq), nq - 1)
            q(l) = q(l) + 1
            sx = sx + x
            sy = sy + y
            tmax = max(tmax, r2)
         endif
   10 continue
c$xmp reduction (+: q)
c$xmp reduction (max: tmax)
c
c     Sequential check on every node.
c
      do 16 l = 0, nq - 1
         sq(l) = 0
   16 continue
      ssx = 0.0d0
      ssy = 0.0d0
      stmax = 0.0d0
      do 20 i = 1, nk
         seed = mod(i * 1103 + 12345, 65536)
         x = 2.0d0 * dble(mod(seed * 75, 65537)) / 65537.0d0 - 1.0d0
         y = 2.0d0 * dble(mod(seed * 77, 65539)) / 65539.0d0 - 1.0d0
         r2 = x * x + y * y
         if (r2 .le. 1.0d0) then
            l = min(int(r2 * nq), nq - 1)
            sq(l) = sq(l) + 1
            ssx = ssx + x
            ssy = ssy + y
            stmax = max(stmax, r2)
         endif
   20 continue
      nerr = 0
      do 30 l = 0, nq - 1
         if (q(l) .ne. sq(l)) nerr = nerr + 1
   30 continue
      if (abs(sx - ssx) .gt. 1.0d-9 .or. abs(sy - ssy) .gt. 1.0d-9)
     &   nerr = nerr + 1
      if (tmax .ne. stmax) nerr = nerr + 1
c$xmp barrier
      if (nerr .ne. 0) then
         if (xmp_node_num() .eq. 1) print *, 'FAIL', nerr
         stop 1
      endif
c$xmp task on p(1)
      print *, 'PASS'
c$xmp end task
      end
