! xmpc-test: np=1,2
! a free-form main program without a `program` statement, with internal procedures
  implicit none
  include 'xmp_lib.h'
  integer :: i, err
!$xmp nodes p(*)
  err = 0
  i = 1
  call bump(i)
  if (i /= 2) err = 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  subroutine bump(k)
    integer :: k
    k = k + 1
  end subroutine bump
end
