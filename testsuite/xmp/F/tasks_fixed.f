! xmpc-test: np=2,4
c     fixed form: tasks with two tasks, the second on the upper half
      program tksfix
      implicit none
      include 'xmp_lib.h'
      integer h, who, err
c$xmp nodes p(*)
      h = xmp_num_nodes() / 2
      who = 0
c$xmp tasks
c$xmp task on p(1:h)
      who = 1
c$xmp end task
c$xmp task on p(h+1:2*h)
      who = 2
c$xmp end task
c$xmp end tasks
      err = 0
      if (xmp_node_num() .le. h .and. who .ne. 1) err = 1
      if (xmp_node_num() .gt. h .and. who .ne. 2) err = 1
c$xmp reduction(+:err)
      if (err .ne. 0) then
         write(*,*) 'ERROR', err
         stop 1
      endif
      if (xmp_node_num() .eq. 1) write(*,*) 'PASS'
      end
