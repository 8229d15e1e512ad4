! xmpc-test: np=1,2
! fixed form: USE after IMPLICIT NONE and a declaration
      MODULE USE_ORDER_FM
      INTEGER :: GF = 7
      END MODULE USE_ORDER_FM
      PROGRAM USE_ORDER_FIXED
      IMPLICIT NONE
      INCLUDE 'xmp_lib.h'
      INTEGER ERR
      USE USE_ORDER_FM
!$XMP NODES P(*)
      ERR = 0
      IF (GF .NE. 7) ERR = 1
!$XMP REDUCTION(+:ERR)
      IF (ERR .NE. 0) THEN
        PRINT *, 'ERROR', ERR
        STOP 1
      END IF
      IF (XMP_NODE_NUM() .EQ. 1) PRINT *, 'PASS'
      END PROGRAM USE_ORDER_FIXED
