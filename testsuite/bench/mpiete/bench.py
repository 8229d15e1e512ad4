#!/usr/bin/env python3
"""MPIETE accuracy bench: for the EP-, CG- and LU-like programs at
mpiexec -n 2 and -n 4, measure the real run (MPIETE_MODE=measure), collect
the three base data sets (compute data in token mode on one core, program
traces, ping-pong comm data), predict, and print measured vs predicted total,
compute and communication time. Then the "second machine": compute data of an
-O0 build replayed over the same traces must predict the -O0 run.

The base-data programs come from the automatic pipeline, no hand marks:
  xmpc --blocks --instrument=compute --simplify prog -o prog_c.f90   (compute data)
  xmpc --blocks --instrument=trace prog -o prog_t.f90                (program data)
(--no-simplify: the compute program without loop capping.)

usage: testsuite/bench/mpiete/bench.py [--np 2,4] [--reps 3] [--quick]
       [--programs ep,cg,lu] [--no-o0] [--nice N] [--no-simplify] [--compute-reps 3]
The compute data is the median (xmpc mpiete merge) of --compute-reps token runs.
TOKEN_CORES=spread (environment) runs token mode with ranks bound to cores
(`mpiexec -bind-to core`) instead of all on core 0: still one rank computes at a
time, but each keeps its data in its own core's cache as in the real run (CG's
compute error 52% -> 5-9% at np=2 here).
--nice N runs every MPI job under `nice -n N` (N < 0 needs root): on a host
shared with other work it keeps the measured runs from being time-sliced with
unrelated processes.
Needs: cargo build -p xmpc -p xmpc-mpiete-rt (CARGO_TARGET_DIR honoured),
mpif90, mpiexec, taskset. Real runs use MPIETE_YIELD=1 (waiting ranks yield
the core, as Open MPI's mpi_yield_when_idle) because the host is shared.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SRC = os.path.join(ROOT, "testsuite", "mpiete")
PROGRAMS = {  # source, bench args, quick args
    "ep": ("ep.F90", ["24", "16"], ["18", "8"]),
    "cg": ("cg.F90", ["1000", "400"], ["200", "50"]),
    "lu": ("lu.F", ["320", "320", "6"], ["96", "64", "2"]),
}


def target_dir():
    t = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    for prof in ("release", "debug"):
        d = os.path.join(t, prof)
        if os.path.exists(os.path.join(d, "xmpc")) and os.path.exists(os.path.join(d, "libxmpc_mpiete.a")):
            return d
    sys.exit(f"xmpc and libxmpc_mpiete.a not found under {t}; run cargo build -p xmpc -p xmpc-mpiete-rt")


NICE = []


def run(cmd, env=None, cwd=None):
    if cmd[0] == "mpiexec":
        cmd = NICE + cmd
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, env=e, cwd=cwd, capture_output=True, text=True)
    # the simplified compute program has its self-check commented out
    if p.returncode != 0 or ("VERIFIED" not in p.stdout and "mpiexec" in cmd and not (SIMPLIFY and (env or {}).get("MPIETE_MODE") == "token")):
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return p.stdout


SIMPLIFY = ["--simplify"]


def build(tdir, work, name, opt, instrument=None):
    """instrument: None (the program as written), "compute" or "trace" (xmpc --blocks)."""
    src = os.path.join(SRC, PROGRAMS[name][0])
    exe = os.path.join(work, f"{name}{opt}{'_' + instrument if instrument else ''}")
    if instrument:
        gen = os.path.join(work, f"{name}_{instrument}{os.path.splitext(src)[1]}")
        extra = SIMPLIFY if instrument == "compute" else []
        run([os.path.join(tdir, "xmpc"), "--blocks", f"--instrument={instrument}"] + extra + [src, "-o", gen])
        src = gen
    run(["mpif90", opt, "-cpp", src, os.path.join(tdir, "libxmpc_mpiete.a"), "-o", exe, "-w"])
    return exe


def measured(exe, args, np, work, reps):
    tot, comp, comm, cpu = [], [], [], []
    for k in range(reps):
        out = os.path.join(work, f"meas{k}")
        os.makedirs(out, exist_ok=True)
        run(["mpiexec", "-n", str(np), exe] + args, {"MPIETE_MODE": "measure", "MPIETE_OUT": out, "MPIETE_YIELD": "1"})
        m = json.load(open(os.path.join(out, "measured.json")))["per_rank"]
        tot.append(max(r["total_s"] for r in m))
        comp.append(statistics.mean(r["total_s"] - r["mpi_s"] for r in m))
        comm.append(statistics.mean(r["mpi_s"] for r in m))
        cpu.append(statistics.mean(r["compute_cpu_s"] for r in m))
    return statistics.median(tot), statistics.median(comp), statistics.median(comm), statistics.median(cpu), (min(comm), max(comm))


COMPUTE_REPS = 3


def base_compute(exe, args, np, work, tag, tdir):
    """Token-mode compute data, COMPUTE_REPS runs combined by `xmpc mpiete merge`
    (per rank and block, the median)."""
    files = []
    for k in range(COMPUTE_REPS):
        out = os.path.join(work, f"compute{tag}_{k}")
        os.makedirs(out, exist_ok=True)
        # token mode: one rank computes at a time. TOKEN_CORES=one (the paper): every
        # rank on core 0; TOKEN_CORES=spread: rank i on core i mod cores, so each rank
        # keeps its data in its own core's cache as in the real run
        if os.environ.get("TOKEN_CORES", "one") == "spread":
            run(["mpiexec", "-bind-to", "core", "-n", str(np), exe] + args, {"MPIETE_MODE": "token", "MPIETE_OUT": out})
        else:
            run(["mpiexec", "-n", str(np), "taskset", "-c", "0", exe] + args, {"MPIETE_MODE": "token", "MPIETE_OUT": out})
        files.append(os.path.join(out, "blocktimes.json"))
    if len(files) == 1:
        return files[0]
    merged = os.path.join(work, f"compute{tag}.json")
    subprocess.run([os.path.join(tdir, "xmpc"), "mpiete", "merge"] + files + ["-o", merged], check=True, capture_output=True)
    return merged


def base_program(exe, args, np, work):
    out = os.path.join(work, "traces")
    os.makedirs(out, exist_ok=True)
    run(["mpiexec", "-n", str(np), exe] + args, {"MPIETE_MODE": "trace", "MPIETE_OUT": out, "MPIETE_YIELD": "1"})
    return out


def predict(tdir, compute, comm, traces, work, jitter=False):
    j = os.path.join(work, "pred.json")
    extra = ["--jitter", "16"] if jitter else []
    subprocess.run([os.path.join(tdir, "xmpc"), "mpiete", "predict", "--compute", compute, "--comm", comm, "--program", traces, "--json", j] + extra,
                   check=True, capture_output=True)
    p = json.load(open(j))
    r = p["ranks"]
    return max(x["time_s"] for x in r), statistics.mean(x["compute_s"] for x in r), statistics.mean(x["comm_s"] for x in r)


def err(p, m):
    return 100.0 * abs(p - m) / m if m > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", default="2,4")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--programs", default="ep,cg,lu")
    ap.add_argument("--no-o0", action="store_true")
    ap.add_argument("--nice", type=int, default=0)
    ap.add_argument("--no-simplify", action="store_true")
    ap.add_argument("--compute-reps", type=int, default=3, help="token-mode runs merged (median) into the compute data")
    a = ap.parse_args()
    if a.no_simplify:
        SIMPLIFY.clear()
    global COMPUTE_REPS
    COMPUTE_REPS = max(1, a.compute_reps)
    if a.nice:
        NICE.extend(["nice", "-n", str(a.nice)])
    tdir = target_dir()
    nps = [int(x) for x in a.np.split(",")]
    work = tempfile.mkdtemp(prefix="mpiete-bench-")
    comm = os.path.join(work, "commdata.json")
    subprocess.run(NICE + [os.path.join(tdir, "xmpc"), "mpiete", "commdata", "--max", "1MiB", "-o", comm], check=True, capture_output=True)
    print(f"load average at start: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}; nice {a.nice}; reps {a.reps} (median), compute data: median of {COMPUTE_REPS} token runs; compute program {'simplified' if SIMPLIFY else 'not simplified'}; work dir {work}")
    print("T: region time, max over ranks (wall). comp: compute time per rank, mean over ranks; measured as")
    print("thread CPU time outside MPI calls (the wall-clock value, total - time in MPI, in the last column);")
    print("predicted from token-mode block times (thread CPU time). comm: time in MPI calls / predicted waiting.")
    print("jit: the same prediction with block times drawn per execution from their measured spread")
    print("(xmpc mpiete predict --jitter 16: mean of 16 replays). comm range: the smallest and largest")
    print("measured communication time of the real runs (their repeatability).")
    hdr = f"{'prog':<5}{'np':>3} {'T meas':>8} {'T pred':>8} {'err%':>6} | {'comp meas':>9} {'comp pred':>9} {'err%':>6} | {'comm meas':>9} {'comm pred':>9} {'err%':>6} | {'comm jit':>9} {'err%':>6} {'T jit':>8} {'err%':>6} | {'comp wall':>9} | {'comm range (runs)':>17}"
    print(hdr)
    print("-" * len(hdr))
    o0 = []
    for name in a.programs.split(","):
        args = PROGRAMS[name][2] if a.quick else PROGRAMS[name][1]
        real = build(tdir, work, name, "-O2")
        inst = build(tdir, work, name, "-O2", "compute")
        trace = build(tdir, work, name, "-O2", "trace")
        for np in nps:
            w = os.path.join(work, f"{name}{np}")
            os.makedirs(w, exist_ok=True)
            tm, cw, km, cm, (klo, khi) = measured(real, args, np, w, a.reps)
            comp = base_compute(inst, args, np, w, "O2", tdir)
            traces = base_program(trace, args, np, w)
            tp, cp, kp = predict(tdir, comp, comm, traces, w)
            tj, _, kj = predict(tdir, comp, comm, traces, w, jitter=True)
            print(f"{name:<5}{np:>3} {tm:>8.4f} {tp:>8.4f} {err(tp, tm):>6.1f} | {cm:>9.4f} {cp:>9.4f} {err(cp, cm):>6.1f} | {km:>9.4f} {kp:>9.4f} {err(kp, km):>6.1f} | {kj:>9.4f} {err(kj, km):>6.1f} {tj:>8.4f} {err(tj, tm):>6.1f} | {cw:>9.4f} | {klo:>8.4f}-{khi:<8.4f}", flush=True)
            if not a.no_o0 and np == nps[0]:
                o0.append((name, np, args, traces, w))
    if o0:
        print("\nsecond machine: -O0 build; -O0 compute data, the -O2 run's traces")
        print(f"{'prog':<5}{'np':>3} {'T meas':>8} {'T pred':>8} {'err%':>6} | {'comp meas':>9} {'comp pred':>9} {'err%':>6}")
        for name, np, args, traces, w in o0:
            real = build(tdir, work, name, "-O0")
            inst = build(tdir, work, name, "-O0", "compute")
            tm, _, _, cm, _ = measured(real, args, np, w, a.reps)
            comp = base_compute(inst, args, np, w, "O0", tdir)
            tp, cp, _ = predict(tdir, comp, comm, traces, w)
            print(f"{name:<5}{np:>3} {tm:>8.4f} {tp:>8.4f} {err(tp, tm):>6.1f} | {cm:>9.4f} {cp:>9.4f} {err(cp, cm):>6.1f}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
