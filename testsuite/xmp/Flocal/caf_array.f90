! xmpc-test: np=2,3
! array coarrays: whole-array and section gets and puts between images
program caf_array
  implicit none
  integer, parameter :: n = 12
  integer :: a(n)[*], b(n), c(n)[*]
  integer :: me, np, i, other
  me = this_image()
  np = num_images()
  other = mod(me, np) + 1
  do i = 1, n
    a(i) = 1000 * me + i
  end do
  c = 0
  sync all
  b = a(:)[other]
  do i = 1, n
    if (b(i) /= 1000 * other + i) then
      print *, 'ERROR line 19: b', me, i, b(i)
      error stop 1
    end if
  end do
  b = -7
  b(3:6) = a(5:8)[other]
  if (any(b(3:6) /= [(1000 * other + i, i = 5, 8)]) .or. b(1) /= -7 .or. b(7) /= -7) then
    print *, 'ERROR line 26: section get', me, b
    error stop 1
  end if
  ! put a section into the other image's c
  c(2:n:2)[other] = a(2:n:2)
  sync all
  do i = 1, n
    if (mod(i, 2) == 0 .and. c(i) /= 1000 * (mod(me - 2 + np, np) + 1) + i) then
      print *, 'ERROR line 34: c', me, i, c(i)
      error stop 1
    end if
    if (mod(i, 2) == 1 .and. c(i) /= 0) then
      print *, 'ERROR line 38: odd c', me, i, c(i)
      error stop 1
    end if
  end do
  sync all
  if (me == 1) print *, 'PASS'
end program caf_array
