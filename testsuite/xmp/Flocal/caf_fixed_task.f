! xmpc-test: np=3,4
c     fixed form: a task on nodes 2..n; its images 1..n-1 are nodes 2..n.
c     Inside: this_image, num_images, a ring of puts among the task's
c     images, sync all, co_sum. Node 1 waits outside.
      program cftask
      implicit none
      include 'xmp_lib.h'
      integer me0, np0, me, n, s, r(2)[*]
!$xmp nodes p(*)
      me0 = xmp_node_num()
      np0 = xmp_num_nodes()
      r = 0
      sync all
!$xmp task on p(2:np0)
      me = this_image()
      n = num_images()
      if (me .ne. me0 - 1 .or. n .ne. np0 - 1) then
        print *, 'ERROR line 18: node', me0, 'image', me, 'of', n
        error stop 1
      end if
      r(1)[mod(me, n) + 1] = me0
      sync all
      s = me0
      call co_sum(s)
      r(2) = s
!$xmp end task
      sync all
      if (me0 .gt. 1) then
        if (r(1) .ne. mod(me0 + np0 - 4, np0 - 1) + 2) then
          print *, 'ERROR line 30: ring', me0, r(1)
          error stop 1
        end if
        if (r(2) .ne. np0 * (np0 + 1) / 2 - 1) then
          print *, 'ERROR line 34: co_sum', me0, r(2)
          error stop 1
        end if
      end if
      if (me0 .eq. 1) print *, 'PASS'
      end
