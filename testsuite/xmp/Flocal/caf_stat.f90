! xmpc-test: np=1,2
! stat= and errmsg= on image control statements and allocate of coarrays
program caf_stat
  implicit none
  integer, allocatable :: a(:)[:]
  integer :: st, me
  character(len=64) :: msg
  me = this_image()
  st = -1
  sync all (stat=st, errmsg=msg)
  if (st /= 0) then
    print *, 'ERROR line 12: sync all stat', st
    error stop 1
  end if
  allocate(a(4)[*], stat=st)
  if (st /= 0 .or. .not. allocated(a)) then
    print *, 'ERROR line 17: allocate stat', st
    error stop 1
  end if
  st = -1
  sync images (*, stat=st)
  if (st /= 0) then
    print *, 'ERROR line 23: sync images stat', st
    error stop 1
  end if
  st = -1
  sync memory (stat=st)
  if (st /= 0) then
    print *, 'ERROR line 29: sync memory stat', st
    error stop 1
  end if
  deallocate(a, stat=st)
  if (st /= 0 .or. allocated(a)) then
    print *, 'ERROR line 34: deallocate stat', st
    error stop 1
  end if
  if (me == 1) print *, 'PASS'
end program caf_stat
