c xmpc-test: np=2,4
c fixed form: a ring of puts with `syncall` written without a blank, and
c a continuation line inside a coindexed statement
      program ringf
      implicit none
      integer v(4)[*], me, np, nx, pv, k
      me = this_image()
      np = num_images()
      nx = mod(me, np) + 1
      pv = mod(me - 2 + np, np) + 1
      v = 0
      syncall
      v(1:4)[nx] = (/ me, 2*me, 3*me,
     &                4*me /)
      sync all
      do k = 1, 4
        if (v(k) .ne. k*pv) then
          print *, 'ERROR line 18: v', me, k, v(k)
          error stop 1
        end if
      end do
      if (me .eq. 1) print *, 'PASS'
      end
