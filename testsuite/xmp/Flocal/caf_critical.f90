! xmpc-test: np=2,4
! a critical construct protects a read-modify-write of a counter on image 1
program caf_critical
  implicit none
  integer :: n[*], me, k, v
  me = this_image()
  n = 0
  sync all
  do k = 1, 10
    critical
      v = n[1]
      n[1] = v + me
    end critical
  end do
  sync all
  if (me == 1) then
    if (n /= 10 * num_images() * (num_images() + 1) / 2) then
      print *, 'ERROR line 18: n', n
      error stop 1
    end if
    print *, 'PASS'
  end if
end program caf_critical
