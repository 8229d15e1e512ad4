//! A rank's operations as the C ABI calls them: the in-process engine (`Rank`
//! methods, contexts and threads back ends) or the mpi back end (one MPI
//! process per rank); both keep the clocks and statistics in the same `Rank`.

use super::coll::CollKind;
use super::collargs::CollArgs;
use super::mpi_backend as mb;
use super::rank::{Rank, St};

pub fn isend(r: &mut Rank, comm: i32, dest: i32, tag: i32, b: u64, data: Option<&[u8]>, blocking: bool, sync: bool) -> i32 {
    if mb::on() {
        mb::isend(r, comm, dest, tag, b, blocking, sync)
    } else {
        r.isend(comm, dest, tag, b, data, blocking, sync)
    }
}

pub fn irecv(r: &mut Rank, comm: i32, src: i32, tag: i32, buf: usize, cap: u64) -> i32 {
    if mb::on() {
        mb::irecv(r, comm, src, tag, cap)
    } else {
        r.irecv(comm, src, tag, buf, cap)
    }
}

pub fn wait(r: &mut Rank, h: i32, st: &mut St) {
    if mb::on() {
        mb::wait(r, h, st)
    } else {
        r.wait(h, st)
    }
}

pub fn waitall(r: &mut Rank, hs: &[i32], sts: &mut [St]) {
    if mb::on() {
        mb::waitall(r, hs, sts)
    } else {
        r.waitall(hs, sts)
    }
}

pub fn waitany(r: &mut Rank, hs: &[i32], st: &mut St) -> Option<usize> {
    if mb::on() {
        mb::waitany(r, hs, st)
    } else {
        r.waitany(hs, st)
    }
}

pub fn testall(r: &mut Rank, hs: &[i32], sts: &mut [St]) -> bool {
    if mb::on() {
        mb::testall(r, hs, sts)
    } else {
        r.testall(hs, sts)
    }
}

pub fn collective(r: &mut Rank, comm: i32, kind: CollKind, a: CollArgs) -> Option<(u64, std::sync::Arc<Vec<u32>>)> {
    if mb::on() {
        mb::collective(r, comm, kind, a)
    } else {
        r.collective(comm, kind, a)
    }
}

/// Whether `h` is a live request handle.
pub fn valid_req(r: &Rank, h: i32) -> bool {
    if mb::on() {
        mb::valid_req(h)
    } else {
        r.valid_req(h)
    }
}

/// Whether request `h` is a receive.
pub fn is_recv(r: &Rank, h: i32) -> bool {
    h > 0 && if mb::on() { mb::is_recv(h) } else { matches!(r.reqs[h as usize], Some(super::rank::Req::Recv { .. })) }
}

/// Drop a request without waiting.
pub fn request_free(r: &mut Rank, h: i32) {
    if mb::on() {
        mb::request_free(h)
    } else {
        r.request_free(h)
    }
}

/// Completed (index, status) pairs of `hs`: Waitsome (`wait`), Testsome, or
/// Testany (`any`). The engine decides deterministically; the mpi back end
/// by what the host knows (Waitsome completes one request there).
pub fn some(r: &mut Rank, hs: &[i32], wait: bool, any: bool) -> Vec<(usize, St)> {
    if mb::on() {
        if wait {
            let mut st = St::default();
            mb::waitany(r, hs, &mut st).map(|i| vec![(i, st)]).unwrap_or_default()
        } else {
            mb::testsome(r, hs, any)
        }
    } else if wait {
        r.waitsome(hs)
    } else {
        r.testsome(hs, any)
    }
}

/// True in a process of the mpi back end.
pub fn mpi_backend() -> bool {
    mb::on()
}

/// A communicator just made by Comm_split/dup gets its handle `h` (mpi back end).
pub fn bind_comm(h: i32) {
    if mb::on() {
        mb::bind_comm(h);
    }
}

/// End the whole run with `code` (every process of the mpi back end).
pub fn abort(code: i32) -> ! {
    if mb::on() {
        mb::abort(code);
    }
    std::process::exit(code)
}
