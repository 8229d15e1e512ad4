! xmpc-test: np=1,2,4
! OpenACC lines (XACC style) pass through the translator untouched: an `!$acc`
! region around distributed loops, `!$acc parallel loop` under `!$xmp loop`
program acc_passthrough
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 40
  integer :: i, s, err
  real(8) :: a(n)
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
  err = 0
  s = 0
!$acc data copy(a)
!$xmp loop on t(i)
!$acc parallel loop
  do i = 1, n
    a(i) = i
  end do
!$acc end parallel loop
!$xmp loop on t(i) reduction(+:s)
!$acc parallel loop reduction(+:s)
  do i = 1, n
    s = s + int(a(i))
  end do
!$acc end data
!$acc update host(s)
  if (s /= n * (n + 1) / 2) err = 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', s
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program acc_passthrough
