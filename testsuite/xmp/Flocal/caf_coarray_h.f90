! xmpc-test: np=1,2
! Omni's include 'xmp_coarray.h': the allocated-bytes counter follows allocate and
! deallocate as Omni's allocator counts (garbage until the later ones are freed), the trace switch is accepted
program caf_coarray_h
  include 'xmp_coarray.h'
  real(8), allocatable :: a(:)[:]
  integer, allocatable :: b(:,:)[:]
  integer :: n0, n1, n2, n3
  call xmpf_coarray_msg(1)
  n0 = xmpf_coarray_allocated_bytes()
  allocate(a(100)[*])
  n1 = xmpf_coarray_allocated_bytes()
  allocate(b(3, 5)[*])
  n2 = xmpf_coarray_allocated_bytes()
  deallocate(a)
  n3 = xmpf_coarray_allocated_bytes()
  ! as Omni counts: `a` is freed below `b`, so it stays counted, as garbage, until
  ! `b` is freed too (Omni's ALLOC/allo_pipo3)
  if (n1 - n0 /= 800 .or. n2 - n1 /= 60 .or. n3 - n0 /= 860 .or. xmpf_coarray_garbage_bytes() /= 800) then
    print *, 'ERROR line 20: bytes', n0, n1, n2, n3
    error stop 1
  end if
  deallocate(b)
  if (xmpf_coarray_allocated_bytes() /= n0 .or. xmpf_coarray_garbage_bytes() /= 0) then
    print *, 'ERROR line 25: after', xmpf_coarray_allocated_bytes()
    error stop 1
  end if
  sync all
  if (this_image() == 1) print *, 'PASS'
end program caf_coarray_h
