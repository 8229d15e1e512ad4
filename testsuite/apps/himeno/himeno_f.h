! Grid sizes of the Fortran Himeno variants (cpp: #include "himeno_f.h"), in the
! order of the original Fortran benchmark: arrays p(MIMAX, MJMAX, MKMAX), i (first)
! contiguous. The C sizes (himeno_common.h) transposed, so that the same dimension
! (the long one) is contiguous and the same one (the slowest) is split in planes:
!   -DSIZE_SSMALL 65x33x33, -DSIZE_SMALL 129x65x65, -DSIZE_MIDDLE 257x129x129
!   (the default), -DSIZE_LARGE 513x257x257; or -DMIMAX=.. -DMJMAX=.. -DMKMAX=..
! 34 floating-point operations per interior point and iteration.
#ifndef MIMAX
#if defined(SIZE_SSMALL)
#define MIMAX 65
#define MJMAX 33
#define MKMAX 33
#elif defined(SIZE_SMALL)
#define MIMAX 129
#define MJMAX 65
#define MKMAX 65
#elif defined(SIZE_LARGE)
#define MIMAX 513
#define MJMAX 257
#define MKMAX 257
#else
#define MIMAX 257
#define MJMAX 129
#define MKMAX 129
#endif
#endif
