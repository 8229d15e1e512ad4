! xmpc-test: np=2,4
! sync memory with atomics: image 1 writes data to each image, sync memory, then
! sets a flag with atomic_define; the others spin on atomic_ref of their flag,
! sync memory, then read the data
program caf_syncmemory
  use, intrinsic :: iso_fortran_env, only: atomic_int_kind
  implicit none
  integer(atomic_int_kind) :: flag[*]
  integer :: val, data(8)[*], me, np, i, k
  me = this_image()
  np = num_images()
  call atomic_define(flag, 0)
  data = 0
  sync all
  if (me == 1) then
    do i = 2, np
      data(:)[i] = [(i * 10 + k, k = 1, 8)]
    end do
    sync memory
    do i = 2, np
      call atomic_define(flag[i], 1)
    end do
  else
    val = 0
    do while (val == 0)
      call atomic_ref(val, flag)
    end do
    sync memory
    do i = 1, 8
      if (data(i) /= me * 10 + i) then
        print *, 'ERROR line 30: data', me, i, data(i)
        error stop 1
      end if
    end do
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_syncmemory
