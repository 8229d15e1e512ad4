! xmpc-test: np=1,2,4
c     fixed form: shadow/reflect with !$xmp and *$xmp sentinels, continued directive
      program reffix
      implicit none
      include 'xmp_lib.h'
      integer n
      parameter (n = 30)
      integer i, err
      real b(n)
      real a(n)
!$xmp nodes p(*)
*$xmp template t(n)
!$xmp distribute t(block)
!$xmp+ onto p
c$xmp align a(i) with t(i)
c$xmp align b(i) with t(i)
c$xmp shadow a(1)
      err = 0
c$xmp loop on t(i)
      do i = 1, n
         a(i) = 2.0 * i
      end do
c$xmp reflect (a)
c$xmp loop on t(i)
      do i = 2, n - 1
         b(i) = a(i - 1) + a(i + 1) - 2.0 * a(i)
         if (b(i) .ne. 0.0) err = err + 1
      end do
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         call exit(1)
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
