c xmpc-test: np=1,2,4
c fixed form: a lock-protected counter on the last image and a critical
c section around a second counter on image 1
      program lockf
      use, intrinsic :: iso_fortran_env, only: lock_type
      implicit none
      type(lock_type) lk[*]
      integer ctr[*], tot[*], me, np, k
      me = this_image()
      np = num_images()
      ctr = 0
      tot = 0
      sync all
      do k = 1, 8
        lock (lk[np])
        ctr[np] = ctr[np] + 1
        unlock (lk[np])
        critical
          tot[1] = tot[1] + k
        end critical
      end do
      sync all
      if (me .eq. np .and. ctr .ne. 8*np) then
        print *, 'ERROR line 23: ctr', ctr
        error stop 1
      end if
      if (me .eq. 1 .and. tot .ne. 36*np) then
        print *, 'ERROR line 27: tot', tot
        error stop 1
      end if
      if (me .eq. 1) print *, 'PASS'
      end
