! xmpc-test: np=1,2,3,4
! `implicit real*8 (a-h,o-z)`: arrays first named in a `dimension` statement are
! real*8 (the reduction of `w` used to be done as default real: a wrong answer), in
! the program and in a contained procedure that inherits the host's rule.
program implicit_real8
  implicit real*8 (a-h,o-z)
  include 'xmp_lib.h'
  dimension w(4)
  common /cb/ z(2)
!$xmp nodes p(*)
!$xmp template t(100)
!$xmp distribute t(block) onto p
  nerr = 0
  w = 0
  z = 0
  s = 0
!$xmp loop on t(i) reduction(+:w, z, s)
  do i = 1, 100
     w(1) = w(1) + (0.5d0 + i * 1.0d8)
     w(4) = w(4) + 1.0d8 + 0.125d0
     z(2) = z(2) + 1.0d9 + 0.25d0
     s = s + 1.0d7 + 0.5d0
  end do
  y = 0
  do i = 1, 100
     y = y + (0.5d0 + i * 1.0d8)
  end do
  ! every partial sum is exact in real*8 (not in default real)
  if (w(1) /= y .or. w(2) /= 0 .or. w(3) /= 0) nerr = nerr + 1
  if (w(4) /= 100 * (1.0d8 + 0.125d0)) nerr = nerr + 1
  if (z(2) /= 100 * (1.0d9 + 0.25d0) .or. z(1) /= 0) nerr = nerr + 1
  if (s /= 100 * (1.0d7 + 0.5d0)) nerr = nerr + 1
  call inner(nerr)
  if (xmp_node_num() == 1) then
     if (nerr == 0) then
        print *, 'PASS'
     else
        print *, 'ERROR', nerr, w(1), y, w(4), z(2), s
     end if
  end if
contains
  subroutine inner(nerr)
    dimension v(3)
    v = 0
!$xmp loop on t(i) reduction(+:v)
    do i = 1, 100
       v(3) = v(3) + 1.0d9 + 0.75d0
    end do
    if (v(3) /= 100 * (1.0d9 + 0.75d0)) nerr = nerr + 1
  end subroutine
end program
