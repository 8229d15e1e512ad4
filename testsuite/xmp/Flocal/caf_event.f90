! xmpc-test: np=2,4
! producer/consumer with events: image 1 writes a value into each consumer's
! buffer then posts its event; each consumer waits, checks, and posts back
program caf_event
  use, intrinsic :: iso_fortran_env, only: event_type
  implicit none
  integer, parameter :: rounds = 4
  type(event_type) :: ready[*], done[*]
  integer :: buf[*], me, np, r, i, cnt
  me = this_image()
  np = num_images()
  buf = 0
  sync all
  do r = 1, rounds
    if (me == 1) then
      do i = 2, np
        buf[i] = 100 * r + i
        event post(ready[i])
      end do
      event wait(done, until_count=np - 1)
    else
      event wait(ready)
      if (buf /= 100 * r + me) then
        print *, 'ERROR line 24: buf', me, r, buf
        error stop 1
      end if
      event post(done[1])
    end if
  end do
  call event_query(ready, cnt)
  if (cnt /= 0) then
    print *, 'ERROR line 32: count', me, cnt
    error stop 1
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_event
