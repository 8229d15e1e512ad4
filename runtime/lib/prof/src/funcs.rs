// The profiled MPI functions. Index = function id shared by the C shim
// (build.rs generates `xp_funcs.h` from this list) and the Rust accounting.
// Included by build.rs and by lib.rs.
pub const FUNCS: &[&str] = &[
    // point-to-point, blocking
    "MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", "MPI_Recv",
    "MPI_Sendrecv", "MPI_Sendrecv_replace",
    // point-to-point, non-blocking
    "MPI_Isend", "MPI_Ibsend", "MPI_Issend", "MPI_Irsend", "MPI_Irecv",
    // completion and probes
    "MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome",
    "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome",
    "MPI_Probe", "MPI_Iprobe",
    // collectives
    "MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Scan", "MPI_Exscan",
    "MPI_Reduce_scatter", "MPI_Reduce_scatter_block",
    "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv",
    "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv",
    // non-blocking collectives
    "MPI_Ibarrier", "MPI_Ibcast", "MPI_Ireduce", "MPI_Iallreduce", "MPI_Iallgather", "MPI_Ialltoall",
    // communicators and misc
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_split_type",
    "MPI_Comm_create", "MPI_Comm_free", "MPI_Cart_create", "MPI_Wtime",
];
