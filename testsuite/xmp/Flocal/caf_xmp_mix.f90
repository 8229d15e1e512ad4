! xmpc-test: np=1,2,4
! global and local view together: an aligned array summed with a loop reduction,
! the per-node partial sums gathered into a coarray on image 1, checked against
! the reduction; node and image numbers agree
program caf_xmp_mix
  implicit none
  include 'xmp_lib.h'
  integer, parameter :: n = 40
  integer :: a(n), i, s, part, total[*]
  integer :: parts(8)[*]
!$xmp nodes p(*)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
  if (xmp_node_num() /= this_image() .or. xmp_num_nodes() /= num_images()) then
    print *, 'ERROR line 16: node/image', xmp_node_num(), this_image()
    error stop 1
  end if
  part = 0
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i * i
    part = part + a(i)
  end do
  s = part
!$xmp reduction(+:s)
  parts(this_image())[1] = part
  sync all
  if (this_image() == 1) then
    total = sum(parts(1:num_images()))
    if (total /= s .or. s /= n * (n + 1) * (2 * n + 1) / 6) then
      print *, 'ERROR line 32: total', total, s
      error stop 1
    end if
  end if
  sync all
  ! every image reads the total from image 1 and the nodes check it with a bcast
  total = total[1]
!$xmp bcast (s)
  if (total /= s) then
    print *, 'ERROR line 41: bcast', this_image(), total, s
    error stop 1
  end if
  call co_sum(part)
  if (part /= s) then
    print *, 'ERROR line 46: co_sum', part, s
    error stop 1
  end if
  if (xmp_node_num() == 1) print *, 'PASS'
end program caf_xmp_mix
