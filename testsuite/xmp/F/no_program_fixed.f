! xmpc-test: np=1,2
! a fixed-form main program without a PROGRAM statement
      IMPLICIT NONE
      INCLUDE 'xmp_lib.h'
      INTEGER I, ERR
!$XMP NODES P(*)
      ERR = 0
      I = XMP_NUM_NODES()
      IF (I .LT. 1) ERR = 1
!$XMP REDUCTION(+:ERR)
      IF (ERR .NE. 0) THEN
        PRINT *, 'ERROR', ERR
        STOP 1
      END IF
      IF (XMP_NODE_NUM() .EQ. 1) PRINT *, 'PASS'
      END
