! xmpc-test: np=1,2
! A coarray of a derived type with pointer and allocatable components (Omni's
! STRUCT/alloc0): registered and counted, used locally; its plain components move
! with the whole coarray (a coindexed component would be gfortran's *_by_ref: XMP0454)
program caf_omni_struct
  type g0
    integer(8) :: a(10)
  end type g0
  type g1
    integer(8) :: a(10)
    real(8) :: r(10)
    type(g0), pointer :: p(:)
    real(8), allocatable :: q(:)
  end type g1
  type(g1), save :: cs1[*], unused1[*]
  type(g1) :: loc
  me = this_image()
  if (xmpf_coarray_allocated_bytes() < 2 * (8 * 10 + 8 * 10)) then
    print *, 'ERROR line 19: allocated', me, xmpf_coarray_allocated_bytes()
    error stop 1
  end if
  cs1%a = me
  cs1%r = 0.5d0 * me
  nullify (cs1%p)
  if (any(cs1%a /= me) .or. any(cs1%r /= 0.5d0 * me) .or. associated(cs1%p)) then
    print *, 'ERROR line 26: local', me
    error stop 1
  end if
  loc%a = 0
  sync all
  if (me == 1) print '(a)', 'PASS'
end program caf_omni_struct
