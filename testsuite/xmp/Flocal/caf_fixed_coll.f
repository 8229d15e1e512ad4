c xmpc-test: np=1,2,4
c fixed form: co_sum, co_max and co_broadcast, with include 'xmp_coarray.h'
      program collf
      include 'xmp_coarray.h'
      integer me, np, s, m, b(3)
      me = this_image()
      np = num_images()
      s = me
      call co_sum(s)
      m = 5 - me
      call co_max(m)
      b(1) = me
      b(2) = 2*me
      b(3) = 3*me
      call co_broadcast(b, 1)
      if (s .ne. np*(np+1)/2 .or. m .ne. 4 .or. b(3) .ne. 3) then
        print *, 'ERROR line 17: coll', me, s, m, b
        error stop 1
      end if
      if (me .eq. 1) print *, 'PASS'
      end
