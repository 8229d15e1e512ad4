! Master-worker: rank 0 hands out ntask tasks one at a time (tag WORK), each worker
! returns (task, result) and gets the next task; tag STOP ends a worker. Task t sums
! 1/k^2 for k = 1..(mod(t,5)+1)*scale. The self-check recomputes every task serially.
! Usage: master_worker [ntask [scale]]
module mw_tasks
  implicit none
  integer, parameter :: maxtask = 4096, tag_work = 1, tag_stop = 2
  double precision :: results(0:maxtask-1)
contains
  double precision function task_value(t, scale)
    integer, intent(in) :: t, scale
    integer :: k
    task_value = 0
    do k = 1, (mod(t, 5) + 1) * scale
      task_value = task_value + 1d0 / (dble(k) * k)
    end do
  end function task_value
end module mw_tasks

program master_worker
  use mpi
  use mw_tasks
  implicit none
  integer :: ntask, scale, rank, nprocs, nxt, outstanding, done, w, t, task, ierr
  integer :: st(MPI_STATUS_SIZE)
  double precision :: pkt(2), total, ref
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  ntask = 64
  scale = 20000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) ntask
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) scale
  end if
  ntask = min(ntask, maxtask)
  nxt = 0
  outstanding = 0
  done = 0
  total = 0
  ref = 0
  if (rank == 0) then
    do w = 1, nprocs - 1
      if (nxt >= ntask) exit
      task = nxt
      nxt = nxt + 1
      call MPI_Send(task, 1, MPI_INTEGER, w, tag_work, MPI_COMM_WORLD, ierr)
      outstanding = outstanding + 1
    end do
    do while (outstanding > 0)
      call MPI_Recv(pkt, 2, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
      outstanding = outstanding - 1
      done = done + 1
      results(nint(pkt(1))) = pkt(2)
      if (nxt < ntask) then
        task = nxt
        nxt = nxt + 1
        call MPI_Send(task, 1, MPI_INTEGER, st(MPI_SOURCE), tag_work, MPI_COMM_WORLD, ierr)
        outstanding = outstanding + 1
      end if
    end do
    do w = 1, nprocs - 1
      call MPI_Send(task, 0, MPI_INTEGER, w, tag_stop, MPI_COMM_WORLD, ierr)
    end do
    do t = 0, ntask - 1
      total = total + results(t)
      ref = ref + task_value(t, scale)
    end do
    print '(a,i0,a,i0,a,i0,a,es20.12,a,es20.12)', 'master_worker np=', nprocs, ' tasks=', ntask, &
      ' done=', done, ' total=', total, ' serial=', ref
    if (done == ntask .and. abs(total - ref) <= 1d-12 * ref) then
      print '(a)', 'CHECK OK'
    else
      print '(a)', 'CHECK FAILED'
    end if
  else
    do
      call MPI_Recv(task, 1, MPI_INTEGER, 0, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
      if (st(MPI_TAG) == tag_stop) exit
      pkt(1) = task
      pkt(2) = task_value(task, scale)
      call MPI_Send(pkt, 2, MPI_DOUBLE_PRECISION, 0, tag_work, MPI_COMM_WORLD, ierr)
    end do
  end if
  call MPI_Finalize(ierr)
end program master_worker
