! xmpc-test: np=1,2,4
! allocatable coarrays: allocate (an implied sync), coindexed access, deallocate,
! allocate again with another size
program caf_alloc
  implicit none
  real(8), allocatable :: a(:)[:], m(:,:)[:]
  integer :: me, np, k, i, nxt
  me = this_image()
  np = num_images()
  nxt = mod(me, np) + 1
  do k = 1, 2
    allocate(a(10 * k)[*])
    if (.not. allocated(a) .or. size(a) /= 10 * k) then
      print *, 'ERROR line 14: allocated', me, k
      error stop 1
    end if
    a = [(dble(me * 100 + i), i = 1, 10 * k)]
    sync all
    do i = 1, 10 * k
      if (a(i)[nxt] /= dble(nxt * 100 + i)) then
        print *, 'ERROR line 21: a', me, k, i, a(i)[nxt]
        error stop 1
      end if
    end do
    sync all
    deallocate(a)
    if (allocated(a)) then
      print *, 'ERROR line 28: still allocated', me
      error stop 1
    end if
  end do
  allocate(m(3, 4)[*])
  m = me
  sync all
  m(2, :)[nxt] = -me
  sync all
  if (any(m(2, :) /= -(mod(me - 2 + np, np) + 1)) .or. any(m(1, :) /= me) .or. any(m(3, :) /= me)) then
    print *, 'ERROR line 38: m', me, m
    error stop 1
  end if
  deallocate(m)
  if (me == 1) print *, 'PASS'
end program caf_alloc
