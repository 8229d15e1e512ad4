c xmpc-test: np=1,2,4
c array directive in fixed form: a long cut statement is re-wrapped with
c column-6 continuations and stays within column 72.
      program arrfix
      implicit none
      include 'xmp_lib.h'
      integer n, i, err
      parameter (n = 16)
      double precision alpha(n), bravo(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align (i) with t(i) :: alpha, bravo
      err = 0
!$xmp loop on t(i)
      do 10 i = 1, n
         bravo(i) = i
   10 continue
!$xmp array on t(1:n)
      alpha(1:n) = 2.0d0 * bravo(1:n) + bravo(1:n) * bravo(1:n) - 1.0d0
!$xmp loop on t(i)
      do 20 i = 1, n
         if (alpha(i) .ne. 2.0d0 * i + i * i - 1.0d0) err = err + 1
   20 continue
!$xmp reduction(+:err)
      if (err .ne. 0) then
         if (xmp_node_num() .eq. 1) print *, 'ERROR', err
         stop 1
      end if
      if (xmp_node_num() .eq. 1) print *, 'PASS'
      end
