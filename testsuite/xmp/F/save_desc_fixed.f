! xmpc-test: np=1,2,4
c save_desc and local_alias in fixed form, in a subroutine called
c several times: the saved 2-D descriptors (of a `save` array and of
c one without) are built once; the local alias of the second is
c associated with its block at every call; reflect, loop and
c reduction work at every call
      program sdfix
      implicit none
      include 'xmp_lib.h'
      integer err, k
      integer(8) s1, s2
      err = 0
      do 10 k = 1, 5
        call step(k, s1, s2, err)
        if (s1 .ne. k * 21_8 * 210_8) err = err + 1
        if (s2 .ne. 2_8 * k * 6 * 189) err = err + 1
   10 continue
!$xmp reduction(+:err)
      if (err .ne. 0) then
        print *, 'ERROR', err
        call exit(1)
      end if
      if (xmp_node_num() .eq. 1) print *, 'PASS'
      end

      subroutine step(k, s1, s2, err)
      implicit none
      integer k, err
      integer(8) s1, s2
      integer i, j, lo, hi
      integer(8), save :: a(6, 20)
      real(8) b(6, 20)
      real(8) lb(:, :)
!$xmp nodes p(*)
!$xmp template t(20)
!$xmp distribute t(block) onto p
!$xmp align a(*, i) with t(i)
!$xmp align b(*, i) with t(i)
!$xmp shadow b(0, 1)
!$xmp local_alias lb => b
!$xmp save_desc :: p, t, a, b
      if (k .eq. 1) then
!$xmp loop on t(i)
        do 20 i = 1, 20
          do 20 j = 1, 6
            a(j, i) = 0
   20   continue
      end if
      lo = huge(0)
      hi = -huge(0)
!$xmp loop on t(i)
      do 30 i = 1, 20
        do 25 j = 1, 6
          a(j, i) = a(j, i) + i * j
          b(j, i) = dble(i * k)
   25   continue
        lo = min(lo, i)
        hi = max(hi, i)
   30 continue
      if (lbound(lb, 1) .ne. 1 .or. ubound(lb, 1) .ne. 6) err = err + 1
      if (lbound(lb, 2) .ne. 0) err = err + 1
      if (ubound(lb, 2) .ne. hi - lo + 2) err = err + 1
      if (lb(3, 1) .ne. dble(lo * k)) err = err + 1
!$xmp reflect (b)
      if (lo .gt. 1) then
        if (lb(2, 0) .ne. dble((lo - 1) * k)) err = err + 1
      end if
      s1 = 0
      s2 = 0
!$xmp loop on t(i) reduction(+:s1, s2)
      do 40 i = 1, 20
        do 35 j = 1, 6
          s1 = s1 + a(j, i)
          if (i .gt. 1 .and. i .lt. 20) then
            s2 = s2 + int(b(j, i - 1) + b(j, i + 1), 8)
          end if
   35   continue
   40 continue
      end
