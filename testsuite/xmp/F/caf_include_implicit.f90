! xmpc-test: np=1,2,3
! FFB-MINI's dd_mpi.F90 (issue 40): INCLUDE 'mpif.h' and INCLUDE 'xmp_coarray.h' before
! IMPLICIT REAL*4(A-H,O-Z) (Omni accepts it; gfortran refuses IMPLICIT after their
! EXTERNAL statements), coarray dummies declared by DIMENSION X(N)[*] whose names are
! on a continuation line of the dummy list (they must not be given SAVE).
      SUBROUTINE SHIFT(ME,NP,IERR,&
                       BUFSND, BUFRCV, MAXBUF)
      INCLUDE 'mpif.h'
      INCLUDE 'xmp_coarray.h'
      IMPLICIT REAL*4(A-H,O-Z)
      DIMENSION BUFSND(MAXBUF)[*], BUFRCV(MAXBUF)[*]
      INTEGER ME, NP, IERR, MAXBUF
      DO I = 1, MAXBUF
        BUFSND(I) = ME * 100 + I
      END DO
      SYNC ALL
      NEXT = MOD(ME, NP) + 1
      BUFRCV(1:MAXBUF)[NEXT] = BUFSND(1:MAXBUF)
      SYNC ALL
      IPREV = MOD(ME + NP - 2, NP) + 1
      IERR = 0
      DO I = 1, MAXBUF
        IF (BUFRCV(I) /= IPREV * 100 + I) IERR = IERR + 1
      END DO
      X = 1.5
      IF (XMPF_COARRAY_ALLOCATED_BYTES() < 0) IERR = IERR + 1
      END

      PROGRAM MAIN
      INTERFACE
        SUBROUTINE SHIFT(ME, NP, IERR, BUFSND, BUFRCV, MAXBUF)
        INTEGER ME, NP, IERR, MAXBUF
        REAL*4 BUFSND(MAXBUF)[*], BUFRCV(MAXBUF)[*]
        END SUBROUTINE
      END INTERFACE
      REAL*4, ALLOCATABLE :: S(:)[:], R(:)[:]
      INTEGER ME, NP, IERR, NERR
      ME = THIS_IMAGE()
      NP = NUM_IMAGES()
      ALLOCATE(S(8)[*], R(8)[*])
      CALL SHIFT(ME, NP, IERR, S, R, 8)
      CALL SHIFT(ME, NP, IERR, S, R, 8)
      NERR = IERR
      CALL CO_SUM(NERR)
      IF (NERR /= 0) THEN
        IF (ME == 1) PRINT *, 'ERROR', NERR
        STOP 1
      END IF
      IF (ME == 1) PRINT *, 'PASS'
      END
