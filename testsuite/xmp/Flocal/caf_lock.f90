! xmpc-test: np=1,2,4
! a lock-protected counter on image 1: every image adds 1 `reps` times, each
! read-modify-write under lock(l[1]); the total must be reps * images
program caf_lock
  use, intrinsic :: iso_fortran_env, only: lock_type
  implicit none
  integer, parameter :: reps = 25
  type(lock_type) :: l[*]
  integer :: counter[*], me, k, v
  me = this_image()
  counter = 0
  sync all
  do k = 1, reps
    lock(l[1])
    v = counter[1]
    counter[1] = v + 1
    unlock(l[1])
  end do
  sync all
  if (me == 1) then
    if (counter /= reps * num_images()) then
      print *, 'ERROR line 22: counter', counter
      error stop 1
    end if
    print *, 'PASS'
  end if
end program caf_lock
