*     2-D Jacobi in fixed form, (block, block) distribution.  Uses the
*     '*$xmp' sentinel and '!$xmp&' directive continuations, and a
*     subroutine that takes the distributed arrays as dummies.
*
*     xmpc-test: np=4
      program jacobi
      implicit none
      include 'xmp_lib.h'
      integer n, niter
      parameter (n = 32, niter = 40)
      real*8 a(n, n), b(n, n), sa(n, n), sb(n, n)
      real*8 diff
      integer i, j, k
*$xmp nodes p(2, 2)
*$xmp template t(n, n)
*$xmp distribute t(block, block)
!$xmp&   onto p
*$xmp align (i, j) with t(i, j) :: a, b
*$xmp shadow b(1:1, 1:1)
*$xmp loop (i, j) on t(i, j)
      do 10 j = 1, n
         do 10 i = 1, n
            a(i, j) = 0.0d0
            if (i .eq. 1) a(i, j) = dble(j)
            b(i, j) = a(i, j)
   10 continue
      do 20 j = 1, n
         do 20 i = 1, n
            sa(i, j) = 0.0d0
            if (i .eq. 1) sa(i, j) = dble(j)
            sb(i, j) = sa(i, j)
   20 continue
      do 100 k = 1, niter
         call sweep(a, b, n)
         call sweep0(sa, sb, n)
  100 continue
      diff = 0.0d0
*$xmp loop (i, j) on t(i, j)
!$xmp&    reduction(max: diff)
      do 30 j = 1, n
         do 30 i = 1, n
            diff = max(diff, abs(b(i, j) - sb(i, j)))
   30 continue
      if (diff .gt. 1.0d-12) then
         if (xmp_node_num() .eq. 1) print *, 'FAIL', diff
         stop 1
      endif
      if (xmp_node_num() .eq. 1) print *, 'PASS'
      end
*
*     One Jacobi step on distributed dummies.
*
      subroutine sweep(a, b, n)
      integer n
      real*8 a(n, n), b(n, n)
      integer i, j
*$xmp nodes p(2, 2)
*$xmp template t(n, n)
*$xmp distribute t(block, block) onto p
*$xmp align (i, j) with t(i, j) :: a, b
*$xmp shadow b(1:1, 1:1)
*$xmp reflect (b)
*$xmp loop (i, j) on t(i, j)
      do 10 j = 2, n - 1
         do 10 i = 2, n - 1
            a(i, j) = 0.25d0 * (b(i - 1, j) + b(i + 1, j)
     &                        + b(i, j - 1) + b(i, j + 1))
   10 continue
*$xmp loop (i, j) on t(i, j)
      do 20 j = 2, n - 1
         do 20 i = 2, n - 1
            b(i, j) = a(i, j)
   20 continue
      return
      end
*
*     The same step, sequential.
*
      subroutine sweep0(a, b, n)
      integer n
      real*8 a(n, n), b(n, n)
      integer i, j
      do 10 j = 2, n - 1
         do 10 i = 2, n - 1
            a(i, j) = 0.25d0 * (b(i - 1, j) + b(i + 1, j)
     &                        + b(i, j - 1) + b(i, j + 1))
   10 continue
      do 20 j = 2, n - 1
         do 20 i = 2, n - 1
            b(i, j) = a(i, j)
   20 continue
      end
