! xmpc-test: np=1,2
! `stop 'text'` and `error stop 'text'`: the words `error`/`stop` inside the message
! must not be taken for the statement (the message was once rewritten in place)
program stop_string
  implicit none
  include 'xmp_lib.h'
  integer :: i, err
!$xmp nodes p(*)
  err = 0
  i = xmp_num_nodes()
  if (i > 100) stop 'error: stop here'
  if (i > 101) error stop 'stop it, error'
  if (i > 102) stop "don't stop"
  if (i < 1) err = 1
!$xmp reduction(+:err)
  if (err /= 0) then
    print *, 'ERROR', err
    stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
  stop 'error stop: the end (status 0)'
end program stop_string
