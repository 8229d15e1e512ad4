! xmpc-test: np=1,2,3,5,8
! a ring: a token goes round the images `laps` times, each image adding its
! number; image 1 checks the total laps * n(n+1)/2
program caf_ring
  implicit none
  integer, parameter :: laps = 5
  integer :: token[*], me, n, lap, want
  me = this_image()
  n = num_images()
  token = 0
  sync all
  do lap = 1, laps
    if (me == 1) then
      if (lap > 1) sync images(n)
      token = token + me
      if (n > 1) then
        token[2] = token
        sync images(2)
      end if
    else
      sync images(me - 1)
      token = token + me
      token[mod(me, n) + 1] = token
      sync images(mod(me, n) + 1)
    end if
  end do
  if (me == 1 .and. n > 1) sync images(n)
  want = laps * n * (n + 1) / 2
  if (me == 1) then
    if (token /= want) then
      print *, 'ERROR line 30: token', token, want
      error stop 1
    end if
    print *, 'PASS'
  end if
end program caf_ring
