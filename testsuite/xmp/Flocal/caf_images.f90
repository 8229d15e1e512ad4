! xmpc-test: np=4,6
! corank 2: this_image(a), this_image(a, dim), image_index, lcobound, ucobound
program caf_images
  implicit none
  real :: a(3)[0:1, 5:*]
  integer :: me, np, c(2), k
  me = this_image()
  np = num_images()
  c = this_image(a)
  ! image me has cosubscripts (0:1 fastest, then 5...)
  if (c(1) /= mod(me - 1, 2) .or. c(2) /= 5 + (me - 1) / 2) then
    print *, 'ERROR line 12: this_image(a)', me, c
    error stop 1
  end if
  if (this_image(a, 1) /= c(1) .or. this_image(a, 2) /= c(2)) then
    print *, 'ERROR line 16: this_image(a, dim)', me
    error stop 1
  end if
  if (image_index(a, c) /= me .or. image_index(a, [1, 5]) /= 2) then
    print *, 'ERROR line 20: image_index', me, image_index(a, c)
    error stop 1
  end if
  if (any(lcobound(a) /= [0, 5]) .or. ucobound(a, 1) /= 1 .or. ucobound(a, 2) /= 5 + (np - 1) / 2) then
    print *, 'ERROR line 24: cobounds', me, lcobound(a), ucobound(a)
    error stop 1
  end if
  a = me
  sync all
  k = image_index(a, [1 - c(1), c(2)])
  if (a(2)[1 - c(1), c(2)] /= k) then
    print *, 'ERROR line 31: a[..]', me, a(2)[1 - c(1), c(2)], k
    error stop 1
  end if
  if (me == 1) print *, 'PASS'
end program caf_images
