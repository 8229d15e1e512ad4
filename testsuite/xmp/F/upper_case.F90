! xmpc-test: np=1,2,4
! upper-case keywords and names, the preprocessor and _XMP
PROGRAM UPPER_CASE
  IMPLICIT NONE
  INCLUDE 'xmp_lib.h'
  INTEGER, PARAMETER :: N = 18
  INTEGER :: I, S
  REAL(8) :: A(N)
!$XMP NODES P(*)
!$XMP TEMPLATE T(N)
!$XMP DISTRIBUTE T(BLOCK) ONTO P
!$XMP ALIGN A(I) WITH T(I)
#ifndef _XMP
  PRINT *, 'ERROR _XMP not defined'
  STOP 1
#endif
!$XMP LOOP ON T(I)
  DO I = 1, N
    A(I) = I
  END DO
  S = 0
!$XMP LOOP ON T(I) REDUCTION(+:S)
  DO I = 1, N
    S = S + INT(A(I))
  END DO
  IF (S /= N * (N + 1) / 2) THEN
    PRINT *, 'ERROR', S
    STOP 1
  END IF
  IF (XMP_NODE_NUM() == 1) PRINT *, 'PASS'
END PROGRAM UPPER_CASE
