! xmpc-test: np=1,2
! A typed function whose result is declared again in its body (FFB-MINI's
! miniapp_util.F: `integer function total` with `integer*4 :: total`): gfortran refuses
! it, Omni accepts it; xmpc warns (XMP0204) and keeps the FUNCTION statement's type.
program result_typed_twice
  implicit none
  include 'xmp_lib.h'
  integer :: me, err
!$xmp nodes p(*)
  me = xmp_node_num()
  err = 0
  if (total(me) /= xmp_num_nodes() * (xmp_num_nodes() + 1) / 2) err = 1
  if (err /= 0) then
    print *, 'ERROR', me
    stop 1
  end if
  if (me == 1) print *, 'PASS'
contains
  integer function total(ival)
    integer :: ival
    integer*4 :: total
    integer :: s
    s = ival
!$xmp reduction(+:s)
    total = s
  end function total
end program result_typed_twice
