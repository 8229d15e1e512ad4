C     Modelling-transform input in fixed form: a ring with blocking calls.
      program ring
      include 'mpif.h'
      integer ierr, rank, np, st(MPI_STATUS_SIZE), k
      double precision x, y, t
      call MPI_Init(ierr)
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
      x = rank
      do 10 k = 1, 3
         if (mod(rank, 2) .eq. 0) then
            call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, mod(rank + 1, np),
     &           k, MPI_COMM_WORLD, ierr)
            call MPI_Recv(y, 1, MPI_DOUBLE_PRECISION,
     &           mod(rank + np - 1, np), k, MPI_COMM_WORLD, st, ierr)
         else
            call MPI_Recv(y, 1, MPI_DOUBLE_PRECISION,
     &           mod(rank + np - 1, np), k, MPI_COMM_WORLD, st, ierr)
            call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, mod(rank + 1, np),
     &           k, MPI_COMM_WORLD, ierr)
         end if
   10 continue
      call MPI_Reduce(y, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0,
     &     MPI_COMM_WORLD, ierr)
      if (rank .eq. 0) then
         if (t .ne. dble(np * (np - 1) / 2)) stop 1
         print '(a)', 'RING VERIFIED'
      end if
      call MPI_Finalize(ierr)
      end
