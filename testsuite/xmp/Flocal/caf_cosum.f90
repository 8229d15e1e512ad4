! xmpc-test: np=1,2,3,4,8
! co_sum: integer and real scalars, an array, with and without result_image
program caf_cosum
  implicit none
  integer :: me, np, s, a(5), k, it
  real(8) :: r
  me = this_image()
  np = num_images()
  do it = 1, 20
    s = me * it
    call co_sum(s)
    if (s /= it * np * (np + 1) / 2) then
      print *, 'ERROR line 13: s', me, it, s
      error stop 1
    end if
  end do
  r = 0.5d0 * me
  call co_sum(r)
  if (abs(r - 0.25d0 * np * (np + 1)) > 1d-12) then
    print *, 'ERROR line 20: r', me, r
    error stop 1
  end if
  a = [(me * k, k = 1, 5)]
  call co_sum(a, result_image=1)
  if (me == 1) then
    do k = 1, 5
      if (a(k) /= k * np * (np + 1) / 2) then
        print *, 'ERROR line 28: a', k, a(k)
        error stop 1
      end if
    end do
  end if
  if (me == 1) print *, 'PASS'
end program caf_cosum
