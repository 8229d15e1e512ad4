!     xmp_coarray.h (xmpc): Omni XcalableMP's local-view helpers, for
!     `include 'xmp_coarray.h'` in free or fixed form. The coarray
!     intrinsics (this_image, num_images, image_index, co_sum...) are
!     gfortran's own (xmpc compiles coarray files with -fcoarray=lib
!     over OpenCoarrays): unlike Omni's header this one does not declare
!     them external. See docs/local-view.md.
!
!     xmpf_coarray_allocated_bytes(): bytes of coarray data this image
!       has registered (static and allocated coarrays) and not freed.
!     xmpf_coarray_garbage_bytes(): always 0 (deallocate frees at once).
!     call xmpf_coarray_msg(n): Omni's trace switch; accepted, no trace.
      integer, external :: xmpf_coarray_allocated_bytes
      integer, external :: xmpf_coarray_garbage_bytes
      external :: xmpf_coarray_msg
