//! MPI profiler.
