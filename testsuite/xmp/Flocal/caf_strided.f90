! xmpc-test: np=2
! strided and 2-D coindexed sections: every other element, a sub-block, a
! reversed section, both as puts and gets
program caf_strided
  implicit none
  integer :: a(10)[*], m(4, 6)[*], me, other, i, j
  me = this_image()
  other = 3 - me
  a = 0
  m = 0
  sync all
  a(1:10:2)[other] = [(100 * me + i, i = 1, 5)]
  m(2:3, 2:5)[other] = reshape([(me * 1000 + i, i = 1, 8)], [2, 4])
  sync all
  do i = 1, 10
    if (mod(i, 2) == 1 .and. a(i) /= 100 * other + (i + 1) / 2 .or. mod(i, 2) == 0 .and. a(i) /= 0) then
      print *, 'ERROR line 17: a', me, i, a(i)
      error stop 1
    end if
  end do
  do j = 1, 6
    do i = 1, 4
      if (i >= 2 .and. i <= 3 .and. j >= 2 .and. j <= 5) then
        if (m(i, j) /= other * 1000 + (i - 1) + 2 * (j - 2)) then
          print *, 'ERROR line 25: m', me, i, j, m(i, j)
          error stop 1
        end if
      else if (m(i, j) /= 0) then
        print *, 'ERROR line 29: m outside', me, i, j, m(i, j)
        error stop 1
      end if
    end do
  end do
  sync all
  if (any(a(9:1:-2)[other] /= [(100 * me + i, i = 5, 1, -1)])) then
    print *, 'ERROR line 36: reversed get', me, a(9:1:-2)[other]
    error stop 1
  end if
  if (any(m(3, 2:5)[other] /= [(me * 1000 + 2 * j, j = 1, 4)])) then
    print *, 'ERROR line 40: row get', me, m(3, 2:5)[other]
    error stop 1
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_strided
