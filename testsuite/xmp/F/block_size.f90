! xmpc-test: np=4
! block(n) with an explicit block size: node k owns ((k-1)*bs+1 : k*bs)
program block_size
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 20, bs = 5
  integer :: i, err
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block(bs)) onto p
  err = 0
  if (xmp_num_nodes() == 4) then
!$xmp loop on t(i)
    do i = 1, n
      if ((i - 1) / bs + 1 /= xmp_node_num()) err = err + 1
    end do
  end if
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program block_size
