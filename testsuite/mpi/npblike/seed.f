c     A seed advanced by a function of another file (seedrng.f; CG's
c     `zeta = randlc(tran, amult)` before `makea`): Fortran passes
c     arguments by reference, so the call writes `seed`, and `seed`
c     decides how many Allreduce calls follow. With compute removed
c     (--bsim-times=zero) the statement must stay: seed 7 -> 5, five
c     Allreduce calls (seven if the call were commented out). Prints
c     CHECK OK on every rank.
      program seedp
      include 'mpif.h'
      integer me, ierr, k, nred, seed, one, tot
      double precision x, nextr
      call mpi_init(ierr)
      call mpi_comm_rank(MPI_COMM_WORLD, me, ierr)
      seed = 7
      x = nextr(seed)
      nred = seed
      one = 1
      do k = 1, nred
         call mpi_allreduce(one, tot, 1, MPI_INTEGER, MPI_SUM,
     >                      MPI_COMM_WORLD, ierr)
      enddo
      if (nred .eq. 5) then
         write (*, '(a,i4,a)') ' rank', me, ' CHECK OK'
      else
         write (*, '(a,i4,a,i4)') ' rank', me, ' CHECK FAILED', nred
      endif
      call mpi_finalize(ierr)
      end
