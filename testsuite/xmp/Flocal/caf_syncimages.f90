! xmpc-test: np=2,3,4
! sync images: pairwise ordering (image 1 fills every image's slot, then syncs with
! each; the others sync with image 1 only); sync images(*) and a list
program caf_syncimages
  implicit none
  integer :: slot[*], me, np, i
  integer, allocatable :: others(:)
  me = this_image()
  np = num_images()
  slot = -1
  sync all
  if (me == 1) then
    do i = 2, np
      slot[i] = i * i
    end do
    sync images(*)
  else
    sync images(1)
    if (slot /= me * me) then
      print *, 'ERROR line 20: slot', me, slot
      error stop 1
    end if
  end if
  ! the last image collects from a list of images
  if (me == np) then
    others = [(i, i = 1, np - 1)]
    sync images(others)
    do i = 1, np - 1
      if (slot[i] /= 7 * i) then
        print *, 'ERROR line 30: list', i, slot[i]
        error stop 1
      end if
    end do
  else
    slot = 7 * me
    sync images(np)
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program caf_syncimages
