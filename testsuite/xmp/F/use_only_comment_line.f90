! xmpc-test: np=1,2
! NICAM-DC-MINI's mod_comm.f90 (issue 40): `use m, only : &` continued over a
! comment-only line. The translation adds the module's set-up procedure to the only
! list; it must go after the last name, not onto the comment line (gfortran: "Missing
! generic specification in USE statement" before).
module grid
  integer, parameter :: n = 16
  integer :: a(n)
  integer :: nb = 3
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
end module grid

module user
contains
  integer function total()
    use grid, only :    &
         !--- the array and its size
         a,         &
         ! the bias
         nb,        &
         n            ! the size
    integer :: i, s
    s = 0
!$xmp loop on t(i) reduction(+:s)
    do i = 1, n
      a(i) = i + nb
      s = s + a(i)
    end do
    total = s
  end function total
end module user

program main
  use user
  integer :: s
  s = total()
  if (s /= 16 * 17 / 2 + 16 * 3) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program main
