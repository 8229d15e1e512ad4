! xmpc-test: np=2,3
! character and logical coarrays, a complex coarray array (a scalar complex
! coarray is refused: XMP0451)
program caf_char
  implicit none
  character(len=8) :: name[*], got
  logical :: flag(3)[*]
  complex(8) :: z(2)[*]
  integer :: me, np, nxt
  me = this_image()
  np = num_images()
  nxt = mod(me, np) + 1
  write(name, '(a,i0)') 'image', me
  flag = [.true., mod(me, 2) == 0, .false.]
  z = cmplx(me, -me, kind=8)
  sync all
  got = name[nxt]
  if (got /= 'image' // achar(48 + nxt)) then
    print *, 'ERROR line 18: name', me, got
    error stop 1
  end if
  if (.not. flag(1)[nxt] .or. (flag(2)[nxt] .neqv. mod(nxt, 2) == 0) .or. flag(3)[nxt]) then
    print *, 'ERROR line 22: flag', me
    error stop 1
  end if
  if (z(2)[nxt] /= cmplx(nxt, -nxt, kind=8)) then
    print *, 'ERROR line 26: z', me, z(2)[nxt]
    error stop 1
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_char
