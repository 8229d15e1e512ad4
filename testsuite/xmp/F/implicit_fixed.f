! xmpc-test: np=1,2
! fixed form: implicit typing with IMPLICIT DOUBLE PRECISION and a loop reduction
      PROGRAM IMPLICIT_FIXED
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      INCLUDE 'xmp_lib.h'
      PARAMETER (N = 20)
!$XMP NODES P(*)
!$XMP TEMPLATE T(N)
!$XMP DISTRIBUTE T(BLOCK) ONTO P
      IERR = 0
      S = 0
!$XMP LOOP ON T(I) REDUCTION(+:S)
      DO I = 1, N
        S = S + 0.5D0 * I
      END DO
      IF (ABS(S - 0.25D0 * N * (N + 1)) .GT. 1D-12) IERR = 1
!$XMP REDUCTION(MAX:IERR)
      IF (IERR .NE. 0) THEN
        PRINT *, 'ERROR', S
        STOP 1
      END IF
      IF (XMP_NODE_NUM() .EQ. 1) PRINT *, 'PASS'
      END
