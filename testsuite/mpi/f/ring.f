c     A ring (fixed form): a message of len doubles goes around the
c     ranks loops times; each rank works on it, adds rank+1 to its first
c     element and passes it on. Self-check: the first element ends as
c     loops*P*(P+1)/2.  Usage: ring [loops]
      program ring
      implicit none
      include 'mpif.h'
      integer len, work
      parameter (len = 1000, work = 20000)
      double precision msg(len), acc, expect
      integer loops, rank, nprocs, next, prev, l, k, tag, ierr
      integer status(MPI_STATUS_SIZE)
      character*32 arg

      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      loops = 10
      if (command_argument_count() .ge. 1) then
         call get_command_argument(1, arg)
         read (arg, *) loops
      end if
      next = mod(rank + 1, nprocs)
      prev = mod(rank + nprocs - 1, nprocs)
      acc = 0
      do 10 k = 1, len
         msg(k) = 0
   10 continue
      do 100 l = 0, loops - 1
         if (rank .ne. 0 .or. l .gt. 0) then
            call MPI_RECV(msg, len, MPI_DOUBLE_PRECISION, prev, l,
     &           MPI_COMM_WORLD, status, ierr)
         end if
         do 20 k = 1, work
            acc = acc + sin(k * 1d-3) * msg(mod(k, len) + 1)
   20    continue
         msg(1) = msg(1) + rank + 1
         tag = l
         if (rank .eq. nprocs - 1) tag = l + 1
         call MPI_SEND(msg, len, MPI_DOUBLE_PRECISION, next, tag,
     &        MPI_COMM_WORLD, ierr)
  100 continue
      if (rank .eq. 0) then
         call MPI_RECV(msg, len, MPI_DOUBLE_PRECISION, prev, loops,
     &        MPI_COMM_WORLD, status, ierr)
         expect = loops * nprocs * (nprocs + 1) / 2d0
         write (*, '(a,i0,a,i0,a,f8.1,a,f8.1,a,es11.3)') 'ring np=',
     &        nprocs, ' loops=', loops, ' value=', msg(1),
     &        ' expected=', expect, ' acc=', acc
         if (msg(1) .eq. expect) then
            write (*, '(a)') 'CHECK OK'
         else
            write (*, '(a)') 'CHECK FAILED'
         end if
      end if
      call MPI_FINALIZE(ierr)
      end
