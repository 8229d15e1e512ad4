! xmpc-test: np=1,2,4
! a module holds an allocatable coarray allocated by a module procedure (as in
! Omni's samples and the Fiber mini-apps); the main program uses it
module field
  include 'xmp_coarray.h'
  integer, parameter :: lx = 20, ly = 5
  real(8), allocatable :: a(:,:)[:]
  integer :: hits[*]
contains
  subroutine allocdata
    allocate(a(lx, ly)[*])
  end subroutine allocdata
  subroutine bump(img)
    integer, intent(in) :: img
    hits[img] = hits[img] + 0
  end subroutine bump
end module field

program caf_module
  use field
  implicit none
  real(8) :: b[*], t
  integer :: me, np, i
  call allocdata
  me = this_image()
  np = num_images()
  a = me * lx
  b = sum(a)
  hits = 0
  sync all
  call bump(me)
  t = 0
  do i = 1, np
    t = t + b[i]
  end do
  if (abs(t - dble(lx * lx * ly) * np * (np + 1) / 2) > 1d-9) then
    print *, 'ERROR line 36: t', me, t
    error stop 1
  end if
  if (a(lx, ly)[np] /= np * lx) then
    print *, 'ERROR line 40: a', me
    error stop 1
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_module
