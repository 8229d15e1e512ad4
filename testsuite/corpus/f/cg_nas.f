c---------------------------------------------------------------------  CG000010
c     NAS-style kernel: conjugate-gradient-like sweeps over a banded    CG000020
c     matrix, written in fixed form with sequence numbers in columns    CG000030
c     73-80.  Vectors are distributed by block; the band is applied     CG000040
c     with a shadow of width 1 on P and reductions for dot products.    CG000050
c                                                                       CG000060
c     xmpc-test: np=4                                                   CG000070
c---------------------------------------------------------------------  CG000080
      PROGRAM CGKERN                                                    CG000090
      IMPLICIT NONE                                                     CG000100
      INCLUDE 'xmp_lib.h'                                               CG000110
      INTEGER NA, NITER                                                 CG000120
      PARAMETER (NA = 1024, NITER = 15)                                 CG000130
      DOUBLE PRECISION X(NA), P(NA), Q(NA), R(NA), Z(NA)                CG000140
      DOUBLE PRECISION RHO, RHO0, ALPHA, BETA, D, RNORM, SNORM          CG000150
      DOUBLE PRECISION SX(NA), SP(NA), SQ(NA), SR(NA), SZ(NA)           CG000160
      INTEGER I, IT                                                     CG000170
      COMMON /SEQV/ SX, SP, SQ, SR, SZ                                  CG000180
      COMMON /SCAL/ RHO, RHO0, ALPHA, BETA, D                           CG000190
C$XMP NODES PROC(4)                                                     CG000200
C$XMP TEMPLATE T(NA)                                                    CG000210
C$XMP DISTRIBUTE T(BLOCK) ONTO PROC                                     CG000220
C$XMP ALIGN (I) WITH T(I) ::                                            CG000230
C$XMP+   X, Q, R, Z                                                     CG000240
C$XMP ALIGN P(I) WITH T(I)                                              CG000250
C$XMP SHADOW P(1:1)                                                     CG000260
c                                                                       CG000270
c     Initial values: x = 1, r = b - A x with A = tridiag(-1, 4, -1)    CG000280
c                                                                       CG000290
C$XMP LOOP ON T(I)                                                      CG000300
      DO 10 I = 1, NA                                                   CG000310
         X(I) = 1.0D0                                                   CG000320
         Z(I) = 0.0D0                                                   CG000330
         R(I) = DBLE(MOD(I, 7)) + 1.0D0                                 CG000340
         P(I) = R(I)                                                    CG000350
   10 CONTINUE                                                          CG000360
      DO 11 I = 1, NA                                                   CG000370
         SZ(I) = 0.0D0                                                  CG000380
         SR(I) = DBLE(MOD(I, 7)) + 1.0D0                                CG000390
         SP(I) = SR(I)                                                  CG000400
   11 CONTINUE                                                          CG000410
      RHO = 0.0D0                                                       CG000420
C$XMP LOOP ON T(I) REDUCTION(+:RHO)                                     CG000430
      DO 20 I = 1, NA                                                   CG000440
         RHO = RHO + R(I) * R(I)                                        CG000450
   20 CONTINUE                                                          CG000460
c                                                                       CG000470
      DO 100 IT = 1, NITER                                              CG000480
C$XMP REFLECT (P)                                                       CG000490
C$XMP LOOP ON T(I)                                                      CG000500
         DO 30 I = 1, NA                                                CG000510
            Q(I) = 4.0D0 * P(I)                                         CG000520
            IF (I .GT. 1)  Q(I) = Q(I) - P(I - 1)                       CG000530
            IF (I .LT. NA) Q(I) = Q(I) - P(I + 1)                       CG000540
   30    CONTINUE                                                       CG000550
         D = 0.0D0                                                      CG000560
C$XMP LOOP ON T(I) REDUCTION(+:D)                                       CG000570
         DO 40 I = 1, NA                                                CG000580
            D = D + P(I) * Q(I)                                         CG000590
   40    CONTINUE                                                       CG000600
         ALPHA = RHO / D                                                CG000610
         RHO0 = RHO                                                     CG000620
         RHO = 0.0D0                                                    CG000630
C$XMP LOOP ON T(I)                                                      CG000640
C$XMP&     REDUCTION(+:RHO)                                             CG000650
         DO 50 I = 1, NA                                                CG000660
            Z(I) = Z(I) + ALPHA * P(I)                                  CG000670
            R(I) = R(I) - ALPHA * Q(I)                                  CG000680
            RHO = RHO + R(I) * R(I)                                     CG000690
   50    CONTINUE                                                       CG000700
         BETA = RHO / RHO0                                              CG000710
C$XMP LOOP ON T(I)                                                      CG000720
         DO 60 I = 1, NA                                                CG000730
            P(I) = R(I) + BETA * P(I)                                   CG000740
   60    CONTINUE                                                       CG000750
  100 CONTINUE                                                          CG000760
      RNORM = SQRT(RHO)                                                 CG000770
c                                                                       CG000780
c     The same iteration, sequentially, on every node.                  CG000790
c                                                                       CG000800
      RHO = 0.0D0                                                       CG000810
      DO 120 I = 1, NA                                                  CG000820
         RHO = RHO + SR(I) * SR(I)                                      CG000830
  120 CONTINUE                                                          CG000840
      DO 200 IT = 1, NITER                                              CG000850
         DO 130 I = 1, NA                                               CG000860
            SQ(I) = 4.0D0 * SP(I)                                       CG000870
            IF (I .GT. 1)  SQ(I) = SQ(I) - SP(I - 1)                    CG000880
            IF (I .LT. NA) SQ(I) = SQ(I) - SP(I + 1)                    CG000890
  130    CONTINUE                                                       CG000900
         D = 0.0D0                                                      CG000910
         DO 140 I = 1, NA                                               CG000920
            D = D + SP(I) * SQ(I)                                       CG000930
  140    CONTINUE                                                       CG000940
         ALPHA = RHO / D                                                CG000950
         RHO0 = RHO                                                     CG000960
         RHO = 0.0D0                                                    CG000970
         DO 150 I = 1, NA                                               CG000980
            SZ(I) = SZ(I) + ALPHA * SP(I)                               CG000990
            SR(I) = SR(I) - ALPHA * SQ(I)                               CG001000
            RHO = RHO + SR(I) * SR(I)                                   CG001010
  150    CONTINUE                                                       CG001020
         BETA = RHO / RHO0                                              CG001030
         DO 160 I = 1, NA                                               CG001040
            SP(I) = SR(I) + BETA * SP(I)                                CG001050
  160    CONTINUE                                                       CG001060
  200 CONTINUE                                                          CG001070
      SNORM = SQRT(RHO)                                                 CG001080
c                                                                       CG001090
      IF (ABS(RNORM - SNORM) .GT. 1.0D-8 * MAX(1.0D0, SNORM)) THEN      CG001100
         IF (XMP_NODE_NUM() .EQ. 1) WRITE(*, 900) RNORM, SNORM          CG001110
         STOP 1                                                         CG001120
      ENDIF                                                             CG001130
      IF (XMP_NODE_NUM() .EQ. 1) WRITE(*, '(A)') 'PASS'                 CG001140
  900 FORMAT(' FAIL ', 2E24.15)                                         CG001150
      END                                                               CG001160
