/* Shared definitions of the Himeno benchmark variants (sequential, MPI, XMP):
 * grid sizes (MIMAX x MJMAX x MKMAX points, arrays indexed [i][j][k], k contiguous)
 * chosen at compile time, as in the original benchmark:
 *   -DSIZE_SSMALL 33x33x65, -DSIZE_SMALL 65x65x129, -DSIZE_MIDDLE 129x129x257
 *   (the default), -DSIZE_LARGE 257x257x513; or -DMIMAX=.. -DMJMAX=.. -DMKMAX=..
 */
#ifndef HIMENO_COMMON_H
#define HIMENO_COMMON_H
#ifndef MIMAX
#if defined(SIZE_SSMALL)
#define MIMAX 33
#define MJMAX 33
#define MKMAX 65
#elif defined(SIZE_SMALL)
#define MIMAX 65
#define MJMAX 65
#define MKMAX 129
#elif defined(SIZE_LARGE)
#define MIMAX 257
#define MJMAX 257
#define MKMAX 513
#else
#define MIMAX 129
#define MJMAX 129
#define MKMAX 257
#endif
#endif
#define HIMENO_OMEGA 0.8f
/* floating-point operations per interior point and iteration (the benchmark's count) */
#define HIMENO_FLOP 34.0
#endif
