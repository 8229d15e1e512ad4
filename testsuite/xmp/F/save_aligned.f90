! xmpc-test: np=1,2,4
! an aligned array with the `save` attribute in a subroutine keeps its runtime
! array and its contents from one call to the next
program save_aligned
  implicit none
  include 'xmp_lib.h'
  integer(8) :: s
  integer :: err, k
  err = 0
  do k = 1, 3
    call acc(k, s)
    if (s /= k * 210_8) err = err + 1
  end do
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
contains
  subroutine acc(k, s)
    integer :: k
    integer(8) :: s
    integer :: i
    integer, save :: a(20)
!$xmp nodes p(*)
!$xmp template t(20)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
    if (k == 1) then
!$xmp loop on t(i)
      do i = 1, 20
        a(i) = 0
      end do
    end if
!$xmp loop on t(i)
    do i = 1, 20
      a(i) = a(i) + i
    end do
    s = 0
!$xmp loop on t(i) reduction(+:s)
    do i = 1, 20
      s = s + a(i)
    end do
  end subroutine acc
end program save_aligned
