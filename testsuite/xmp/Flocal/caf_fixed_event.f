c xmpc-test: np=1,2,4,8
c fixed form: a pipeline of events. In each round image i waits for
c its left neighbour's post, adds its part to the running sums the
c neighbour put into its buffer, acknowledges, and puts the new sums
c into the right neighbour's buffer once that one has acknowledged the
c previous round. The last image checks the closed form.
      program pipef
      use, intrinsic :: iso_fortran_env, only: event_type
      implicit none
      type(event_type) ev[*], ack[*]
      integer acc(3)[*], s(3), me, np, r, nr, nerr
      parameter (nr = 6)
      me = this_image()
      np = num_images()
      nerr = 0
      acc = 0
      sync all
      do r = 1, nr
        if (me .gt. 1) then
          event wait (ev)
          s = acc + (/ me, r * me, 1 /)
          event post (ack[me - 1])
        else
          s = (/ 1, r, 1 /)
        end if
        if (me .lt. np) then
          if (r .gt. 1) event wait (ack)
          acc(1:3)[me + 1] = s
          event post (ev[me + 1])
        else
          if (s(1) .ne. np * (np + 1) / 2 .or.
     &        s(2) .ne. r * np * (np + 1) / 2 .or. s(3) .ne. np) then
            print *, 'ERROR line 33: round', r, ' sums', s
            nerr = nerr + 1
          end if
        end if
      end do
      if (me .lt. np) event wait (ack)
      sync all
      call co_sum(nerr)
      if (nerr .ne. 0) error stop 1
      if (me .eq. 1) print *, 'PASS'
      end
