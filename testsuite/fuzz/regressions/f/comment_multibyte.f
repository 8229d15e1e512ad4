c     固定形式、CRLF 改行、日本語コメント。bcast と task を使う。
c
c     xmpc-test: np=4
      PROGRAM BCASTJ
      IMPLICIT NONE
   é   INCLUDE 'xmp_lib.h'
      INTEGER V(8), ME, NN, I, NERR
C$XMP NODES P(*)
      ME = XMP_NODE_NUM()
      NN = XMP_NUM_NODES()
C     ノード 1 だけが値を持つ
      DO 10 I = 1, 8
         V(I) = 0
         IF (ME .EQ. 1) V(I) = I * 11
   10 CONTINUE
C$XMP BCAST (V)
C$XMP+      FROM P(1)
      NERR = 0
      DO 20 I = 1, 8
         IF (V(I) .NE. I * 11) NERR = NERR + 1
   20 CONTINUE
C     最後のノードで値を変えて、全ノードへ配る
C$XMP TASK ON P(NN)
      V(1) = -1
C$XMP END TASK
C$XMP BCAST (V) FROM P(NN)
      IF (V(1) .NE. -1) NERR = NERR + 1
C$XMP REDUCTION (+: NERR)
      IF (NERR .NE. 0) THEN
         IF (ME .EQ. 1) PRINT *, 'FAIL', NERR
         STOP 1
      END IF
      IF (ME .EQ. 1) PRINT *, 'PASS'
      END
