! xmpc-test: np=2,3
! Omni's coindexed whole arrays without a section (`b = a[2]`, `a[3,1] = a[1,1]`):
! gets and puts of rank 1 and 2, a `dimension` attribute, a host's array, a module's
module caf_omni_whole_m
  integer :: pot(0:3)[*]
end module caf_omni_whole_m

program caf_omni_whole
  use caf_omni_whole_m
  integer(8) :: a(2:5, 3)[*]
  real, dimension(4) :: r[2, *]
  integer :: b(2:5, 3), i, j
  me = this_image()
  np = num_images()
  do j = 1, 3
    do i = 2, 5
      a(i, j) = me * 100 + i * 10 + j
    end do
  end do
  r = me
  sync all
  b = a[np]
  if (any(b /= a + (np - me) * 100)) then
    print *, 'ERROR line 18: b = a[np]', me, b
    error stop 1
  end if
  sync all
  if (me == 1) a[np] = a
  sync all
  if (me == np .and. any(a /= a[1])) then
    print *, 'ERROR line 25: a[np] = a', me, a
    error stop 1
  end if
  if (me == 1) r[2, 1] = r[1, 1] + 5
  sync all
  if (me == 2 .and. any(r /= 6.0)) then
    print *, 'ERROR line 31: r[2, 1]', me, r
    error stop 1
  end if
  call inner
  pot = me
  sync all
  if (me == 2) pot[1] = pot + 7
  sync all
  if (me == 1 .and. any(pot /= 9)) then
    print *, 'ERROR line 46: pot[1] = pot', me, pot
    error stop 1
  end if
  sync all
  if (me == 1) print '(a)', 'PASS'
contains
  subroutine inner
    integer(8) :: c(2:5, 3)
    c = a[1]
    if (any(c /= a[1])) then
      print *, 'ERROR line 42: c = a[1]', me, c
      error stop 1
    end if
    if (c(5, 3) /= 153) then
      print *, 'ERROR line 46: c(5, 3)', me, c(5, 3)
      error stop 1
    end if
  end subroutine inner
end program caf_omni_whole
