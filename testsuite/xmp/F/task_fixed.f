! xmpc-test: np=2,4
c     fixed form: task, bcast, barrier; long generated lines are re-wrapped
      program tskfix
      implicit none
      include 'xmp_lib.h'
      integer err, x, y
c$xmp nodes p(*)
      err = 0
      x = 0
      y = xmp_node_num()
c$xmp task on p(1)
      x = 7
c$xmp end task
c$xmp bcast (x) from p(1)
      if (x .ne. 7) err = err + 1
c$xmp bcast (y) from p(2)
      if (y .ne. 2) err = err + 1
c$xmp barrier
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         stop 2
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
