C xmpc-test: np=1,3
C fixed form: a 1-D halo exchange of a blocked array by coindexed gets,
C three smoothing steps compared with the sequential computation
      program halof
      implicit none
      integer nl, ng, it, i, me, np
      parameter (nl = 6)
      double precision u(0:nl+1)[*], w(nl), g(0:3*nl+1), h(0:3*nl+1)
      me = this_image()
      np = num_images()
      ng = nl*np
      do i = 0, ng + 1
        g(i) = dble(i*i)
      end do
      do i = 0, nl + 1
        u(i) = g((me-1)*nl + i)
      end do
      do it = 1, 3
        do i = 1, ng
          h(i) = (g(i-1) + 2d0*g(i) + g(i+1))/4d0
        end do
        do i = 1, ng
          g(i) = h(i)
        end do
        do i = 1, nl
          w(i) = (u(i-1) + 2d0*u(i) + u(i+1))/4d0
        end do
        sync all
        u(1:nl) = w
        sync all
        if (me .gt. 1) u(0) = u(nl)[me-1]
        if (me .lt. np) u(nl+1) = u(1)[me+1]
      end do
      do i = 0, nl + 1
        if (abs(u(i) - g((me-1)*nl + i)) .gt. 1d-9) then
          print *, 'ERROR line 36: u', me, i, u(i)
          error stop 1
        end if
      end do
      if (me .eq. 1) print *, 'PASS'
      end
