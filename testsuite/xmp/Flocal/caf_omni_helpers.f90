! xmpc-test: np=1,3
! Omni's coarray helpers called without `include 'xmp_coarray.h'` (as in Omni's suite):
! typed as Omni's front end types them, not by implicit typing (a real result would
! read the integer as a float); Omni's layer inquiries answer as its MPI-3 build.
! Unused static coarrays are allocated and counted too, as in Omni (Omni's v4init2).
subroutine unused
  integer, save :: itmp(2, 2)[*]
  character(12), save :: names(3 + 1)[*]
end subroutine unused

program caf_omni_helpers
  real(8), allocatable :: a(:)[:]
  me = this_image()
  if (xmpf_coarray_uses_fjrdma() .or. xmpf_coarray_uses_gasnet()) then
    print *, 'ERROR line 9: uses_fjrdma/gasnet', me
    error stop 1
  end if
  if (.not. xmpf_coarray_uses_mpi3_onesided()) then
    print *, 'ERROR line 13: uses_mpi3_onesided', me
    error stop 1
  end if
  n0 = xmpf_coarray_allocated_bytes()
  if (n0 /= 2 * 2 * 4 + 4 * 12) then
    print *, 'ERROR line 23: static coarrays', me, n0
    error stop 1
  end if
  allocate(a(100)[*])
  n1 = xmpf_coarray_allocated_bytes()
  if (n1 - n0 /= 800 .or. xmpf_coarray_garbage_bytes() /= 0) then
    print *, 'ERROR line 20: allocated', me, n0, n1
    error stop 1
  end if
  deallocate(a)
  if (xmpf_coarray_allocated_bytes() /= n0) then
    print *, 'ERROR line 25: after deallocate', me, xmpf_coarray_allocated_bytes(), n0
    error stop 1
  end if
  write(*, '(a, i0)') ' malloc ', xmpf_coarray_malloc_bytes()
  sync all
  if (me == 1) print '(a)', 'PASS'
end program caf_omni_helpers
