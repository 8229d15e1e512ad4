C     Upper-case FORTRAN 77: labelled DO loops sharing one terminal
C     statement, GO TO, arithmetic IF, COMMON blocks, continuation
C     lines marked with digits and '$', a block-cyclic distribution.
C
C     xmpc-test: np=4
      PROGRAM LABELS
      INTEGER N, M
      PARAMETER (N = 24, M = 16)
      DOUBLE PRECISION A(N, M), B(N, M), S, T
      INTEGER I, J, K, NERR, ME
      COMMON /SIZES/ NN, MM
      COMMON /ACC/ S, T
      INTEGER XMP_NODE_NUM
      EXTERNAL XMP_NODE_NUM
C$XMP NODES P(4)
C$XMP TEMPLATE TT(M)
C$XMP DISTRIBUTE TT(CYCLIC(3)) ONTO P
C$XMP ALIGN A(*, J) WITH TT(J)
C$XMP ALIGN B(*, J)
C$XMP1   WITH TT(J)
      NN = N
      MM = M
      ME = XMP_NODE_NUM()
C
C     Two loops ending on one CONTINUE.
C
C$XMP LOOP ON TT(J)
      DO 10 J = 1, MM
      DO 10 I = 1, NN
         A(I, J) = DBLE(I) + 100.0D0 * DBLE(J)
         B(I, J) = 0.0D0
   10 CONTINUE
C
C     Three loops ending on an assignment.
C
C$XMP LOOP ON TT(J)
      DO 20 J = 1, MM
      DO 20 K = 1, 2
      DO 20 I = 1, NN
   20 B(I, J) = B(I, J) + 0.5D0 * A(I, J)
C
      S = 0.0D0
      T = 0.0D0
C$XMP LOOP ON TT(J) REDUCTION(+:S)
      DO 30 J = 1, MM
         DO 40 I = 1, NN
            S = S + B(I, J)
     $          - A(I, J)
   40    CONTINUE
   30 CONTINUE
C
C     Sum of A over all elements, the old way.
C
      K = 0
   50 K = K + 1
      IF (K - 2) 60, 70, 70
   60 T = T + 1.0D0
      GO TO 50
   70 CONTINUE
      NERR = 0
      IF (ABS(S) .GT. 1.0D-9) NERR = NERR + 1
      IF (T .NE. 1.0D0) NERR = NERR + 1
      IF (NERR .NE. 0) THEN
         IF (ME .EQ. 1) PRINT *, 'FAIL', S, T
         STOP 1
      END IF
      IF (ME .EQ. 1) PRINT *, 'PASS'
      END
