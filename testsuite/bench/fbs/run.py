#!/usr/bin/env python3
"""FBS barrier benchmarks, the whole table in one go (docs/fbs.md).

1. Threads: `cargo bench -p xmpc-fbs --bench barrier` in table mode (FBS vs
   std::sync::Barrier, hurdles, spin, pthread_barrier_wait, libgomp; 2
   threads, then 3 and 4 as oversubscription; DAXPY).
2. Processes: barrier.c with mpiexec at NP=2 (headline), 3 and 4: `xmp
   barrier` through FBS flags, `xmp barrier` with XMPC_FBS=0, and plain
   MPI_Barrier (MPICH shared memory). Variants alternate round by round;
   before and after each run the load average and /proc/stat are read, and a
   run during which other processes used more than MAX_FOREIGN cores is
   discarded (its row says LOADED when all were).

Environment: ROUNDS (7), SAMPLES (50), BATCH (2000), MAX_FOREIGN (0.10),
THREADS=0 skips part 1, PROCS=0 skips part 2; other FBS_* variables go to
the thread bench (see runtime/lib/fbs/benches/barrier.rs).
"""
import os, resource, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "../../.."))
target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
env = lambda k, d: type(d)(os.environ.get(k, d))
ROUNDS, SAMPLES, BATCH, MAXF = env("ROUNDS", 7), env("SAMPLES", 50), env("BATCH", 2000), env("MAX_FOREIGN", 0.10)
HZ = os.sysconf("SC_CLK_TCK")


def loadavg():
    return open("/proc/loadavg").read().split()[0]


def busy():
    v = [int(x) for x in open("/proc/stat").readline().split()[1:9]]
    return sum(v) - v[3] - v[4]


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def pct(v, p):
    v = sorted(v)
    return v[round((len(v) - 1) * p)] if v else float("nan")


def threads():
    e = dict(os.environ, FBS_BENCH="table", FBS_ROUNDS=str(ROUNDS))
    subprocess.run(["cargo", "bench", "-q", "-p", "xmpc-fbs", "--bench", "barrier"], cwd=root, env=e, check=True)


def procs():
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "xmpc-rt"], cwd=root, check=True)
    d = tempfile.mkdtemp(prefix="xmpc-fbs-")
    exe = os.path.join(d, "barrier")
    subprocess.run([os.environ.get("MPICC", "mpicc"), "-O2", "-o", exe, os.path.join(here, "barrier.c"),
                    "-I", os.path.join(root, "runtime/lib/xmp/include"), os.path.join(target, "release/libxmpc_rt.a"),
                    "-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"], check=True)
    variants = [("xmp barrier, FBS", "xmp", "1"), ("xmp barrier, XMPC_FBS=0", "xmp", "0"), ("MPI_Barrier", "mpi", "1")]
    print(f"\n# FBS process barrier: {os.cpu_count()} CPUs, {ROUNDS} rounds, {SAMPLES} samples x {BATCH} barriers per run, "
          f"runs with > {MAXF} cores used by other processes discarded; start load {open('/proc/loadavg').read().strip()}")
    for np in (2, 3, 4):
        rows = {v[0]: dict(kept=[], all=[], k=0, n=0, loads=[], pts=0) for v in variants}
        # oversubscribed: fewer barriers (MPI_Barrier then costs ms)
        s, b = (SAMPLES, BATCH) if np <= os.cpu_count() else (max(SAMPLES // 5, 5), max(BATCH // 50, 10))
        for r in range(ROUNDS):
            for (label, mode, fbs) in (variants if r % 2 == 0 else variants[::-1]):
                l0, b0, c0, t0 = loadavg(), busy(), child_cpu(), time.time()
                out = subprocess.run(["mpiexec", "-n", str(np), exe, mode, str(s), str(b)], capture_output=True, text=True,
                                     env=dict(os.environ, XMPC_FBS=fbs, UCX_ERROR_SIGNALS=""))
                l1, b1, c1, t1 = loadavg(), busy(), child_cpu(), time.time()
                if out.returncode != 0:
                    sys.exit(f"{label} -n {np}: {out.stderr}")
                lines = out.stdout.split()
                v = [float(x) for x in out.stdout.splitlines() if x and x[0].isdigit()]
                pts = int(out.stdout.split("fbs points")[1].split()[0])
                foreign = max(0.0, (b1 - b0) / HZ - (c1 - c0)) / max(t1 - t0, 1e-3)
                row = rows[label]
                row["n"] += 1
                row["all"] += v
                row["loads"] += [float(l0), float(l1)]
                row["pts"] = max(row["pts"], pts)
                keep = foreign <= MAXF
                if keep:
                    row["kept"] += v
                    row["k"] += 1
                print(f"  -n {np} round {r} {label:<26} median {pct(v, .5):10.1f} ns  load {l0}->{l1}  other procs {foreign:.2f} cores"
                      + ("" if keep else " (discarded)"), file=sys.stderr)
        print(f"\n### {np} processes{' (oversubscribed)' if np > os.cpu_count() else ''}\n")
        print("| variant | min (ns) | median (ns) | p99 (ns) | MPI_Barrier median / this | runs kept | FBS points | load avg (1 min) range |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        med = {}
        for label in rows:
            row = rows[label]
            v = row["kept"] or row["all"]
            med[label] = pct(v, .5)
        for label, row in rows.items():
            v = row["kept"] or row["all"]
            print(f"| {label}{'' if row['kept'] else ' LOADED'} | {pct(v, 0):.1f} | {med[label]:.1f} | {pct(v, .99):.1f} | "
                  f"{med['MPI_Barrier'] / med[label]:.2f} | {row['k']}/{row['n']} | {row['pts']} | {min(row['loads']):.2f}–{max(row['loads']):.2f} |")
    print(f"\n# end load {open('/proc/loadavg').read().strip()}")


if __name__ == "__main__":
    if os.environ.get("THREADS", "1") != "0":
        threads()
    if os.environ.get("PROCS", "1") != "0":
        procs()
