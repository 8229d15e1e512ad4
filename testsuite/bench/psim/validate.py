#!/usr/bin/env python3
"""PSIM validation: predicted compute-block times (xmpc psim predict, machine file of
this host) against the block times libxmpc_mpiete measures (token mode: one rank
computes at a time, thread CPU time) for the testsuite/mpi and testsuite/mpiete
programs, at sizes inside and outside the caches. Prints one row per block (blocks
that run more than once on rank 0, i.e. the iteration loops' blocks, and whole-loop
blocks), then the median |error| and the worst case, and the load average before and
after (the host is shared: re-run on a quiet machine for figures to quote).
The timer overhead of a measured block (two clock_gettime(CLOCK_THREAD_CPUTIME_ID)
calls, about 1 us on this VM) is measured with timer.c (an instrumented one-statement
block) and subtracted from every measured mean before the comparison (column
`measured_s` is the raw mean, `error` compares predicted with raw - overhead).

With both in-core models (`--incore table,llvm-mca`, the default) every block is
predicted twice from the same measurement: with the machine file's pipe table
(`core.incore = "table"`) and with llvm-mca's cycles per iteration of the loops the
native compiler emits (`core.incore = "llvm-mca"`, written to a copy of the file); one
error column and one median per model. Loops llvm-mca cannot time keep the table's
in-core time (xmpc says which on stderr; printed here as `# fallback` lines).

usage: testsuite/bench/psim/validate.py [--machine M.toml] [--np 2]
       [--only NAME,...] [--reps 3] [--incore table,llvm-mca]
Needs: cargo build -p xmpc -p xmpc-mpiete-rt (CARGO_TARGET_DIR honoured), mpicc,
mpif90, mpiexec. The measured time of a block is the median over --reps token runs
of rank 0's mean.
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
T = "testsuite"
STATS = ("min", "steady")  # the statistics of the measured block times compared (see measure)
MIN_BLOCK_S = 5e-6  # shorter blocks are mostly timer
# name, source, --blocks, cpp defines, program args, psim --set values
CASES = [
    ("jacobi2d.c in", f"{T}/mpi/c/jacobi2d.c", False, [], ["300", "200"], ["n=300", "iters=200"]),
    ("jacobi2d.c out", f"{T}/mpi/c/jacobi2d.c", False, [], ["3000", "6"], ["n=3000", "iters=6"]),
    ("jacobi3d.c in", f"{T}/mpi/c/jacobi3d.c", False, ["N=40"], ["100"], ["iters=100"]),
    ("jacobi3d.c out", f"{T}/mpi/c/jacobi3d.c", False, ["N=200"], ["4"], ["iters=4"]),
    ("cg.c in", f"{T}/mpi/c/cg.c", False, [], ["60000", "200"], ["n=60000", "iters=200"]),
    ("cg.c out", f"{T}/mpi/c/cg.c", False, [], ["8000000", "4"], ["n=8000000", "iters=4"]),
    ("jacobi2d.f90 in", f"{T}/mpi/f/jacobi2d.f90", False, [], ["300", "200"], ["n=300", "iters=200"]),
    ("jacobi2d.f90 out", f"{T}/mpi/f/jacobi2d.f90", False, [], ["3000", "6"], ["n=3000", "iters=6"]),
    ("cg.f in", f"{T}/mpi/f/cg.f", False, [], ["60000", "200"], ["n=60000", "iters=200"]),
    ("cg.f out", f"{T}/mpi/f/cg.f", False, [], ["3000000", "4"], ["n=3000000", "iters=4"]),
    ("mpiete/cg.F90 in", f"{T}/mpiete/cg.F90", True, [], ["150", "200"], ["n=150", "iters=200"]),
    ("mpiete/cg.F90 out", f"{T}/mpiete/cg.F90", True, [], ["2000", "6"], ["n=2000", "iters=6"]),
    ("mpiete/ep.F90", f"{T}/mpiete/ep.F90", True, [], ["20", "8"], ["m=20", "nbatch=8"]),  # block 6: the batch loop, timed once
    ("mpiete/heat.c in", f"{T}/mpiete/heat.c", True, [], ["60000", "200"], ["n=60000", "nit=200"]),
]


def target_dir():
    t = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    found = [os.path.join(t, p) for p in ("release", "debug") if os.path.exists(os.path.join(t, p, "xmpc")) and os.path.exists(os.path.join(t, p, "libxmpc_mpiete.a"))]
    if found:  # the newer build
        return max(found, key=lambda d: os.path.getmtime(os.path.join(d, "xmpc")))
    sys.exit(f"xmpc and libxmpc_mpiete.a not found under {t}; run cargo build -p xmpc -p xmpc-mpiete-rt")


def sh(cmd, env=None, cwd=None, stderr=False):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, env=e, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return (p.stdout, p.stderr) if stderr else p.stdout


def with_incore(machine, incore, tmp):
    """The machine file with `core.incore` set (a copy in tmp; the file itself when it
    already says so)."""
    text = open(machine).read()
    new, n = re.subn(r'(?m)^incore\s*=.*$', f'incore = "{incore}"', text)
    if n == 0:
        new = re.sub(r'(?m)^\[core\]\s*$', f'[core]\nincore = "{incore}"', text, count=1)
    if new == text:
        return machine
    path = os.path.join(tmp, f"machine-{incore}.toml")
    open(path, "w").write(new)
    return path


def load():
    return open("/proc/loadavg").read().split()[:3]


def steady(pr):
    """A rank's mean time of a block without its first execution (which pays the first
    touch of fresh pages and cold caches: costs of the operating system and of the
    program's start that PSIM does not model); the mean itself for a block run once."""
    k = pr["count"]
    if k < 2 or "first_s" not in pr:
        return pr["mean_s"]
    return (pr["mean_s"] * k - pr["first_s"]) / (k - 1)


def measure(xmpc, src, blocks, defs, args, np_, reps, tmp):
    """Rank 0's time per block, each statistic the median over reps token runs:
    `min` (its fastest execution), `steady` (its mean without the first execution),
    `mean` (over all executions), and its `count`."""
    exe = os.path.join(tmp, os.path.basename(src).replace(".", "_") + "_" + "_".join(defs))
    cmd = [xmpc] + (["--blocks"] if blocks else []) + ["--instrument=compute", src, "-o", exe, "-O2"] + [f"-D{d}" for d in defs]
    sh(cmd)
    runs = []
    for r in range(reps):
        out = os.path.join(tmp, f"out{r}")
        os.makedirs(out, exist_ok=True)
        # each rank on its own core (as far as there are cores), and the token mode's
        # waiting rank spins on it (libxmpc_mpiete's default when the ranks fit): a rank
        # that slept came back to caches the VM's host had lent to others
        bind = ["-bind-to", "core"] if np_ <= (os.cpu_count() or 1) else []
        sh(["mpiexec"] + bind + ["-n", str(np_), exe] + args, env={"MPIETE_MODE": "token", "MPIETE_OUT": out}, cwd=tmp)
        runs.append(json.load(open(os.path.join(out, "blocktimes.json"))))
    res = {}
    for b in runs[0]["blocks"]:
        prs = []
        for j in runs:
            bb = next(x for x in j["blocks"] if x["id"] == b["id"])
            if bb["per_rank"][0]["count"] > 0:
                prs.append(bb["per_rank"][0])
        if prs:
            res[b["id"]] = {
                "count": prs[0]["count"],
                "min": statistics.median(pr.get("min_s", pr["mean_s"]) for pr in prs),
                "steady": statistics.median(steady(pr) for pr in prs),
                "mean": statistics.median(pr["mean_s"] for pr in prs),
            }
    return res


def predict(xmpc, machine, src, blocks, defs, sets, np_):
    # token mode runs one rank at a time: nobody shares the memory bandwidth
    cmd = [xmpc, "psim", "predict", src, "--machine", machine, "--np", str(np_), "--ranks-per-node", "1"] + (["--blocks"] if blocks else [])
    cmd += [f"-D{d}" for d in defs] + sum([["--set", s] for s in sets], [])
    out, err = sh(cmd + ["-v"], stderr=True)
    fallbacks = [l for l in err.splitlines() if "llvm-mca cannot time" in l]
    res, incore, cur = {}, {}, None
    for l in out.splitlines():
        w = l.split()
        if l.startswith("block "):
            cur = int(w[1])
            if "per_exec" in w:
                res[cur] = float(w[w.index("per_exec") + 1])
        elif l.strip().startswith("llvm-mca:") and cur is not None:
            # "llvm-mca: X cy/it (...) | psim in-core Y cy/it": PSIM's in-core figure / llvm-mca's
            mca = w[1] if len(w) > 2 and w[2] == "cy/it" else "-"
            ps = l.split("psim in-core")[-1].split()[0] if "psim in-core" in l else "?"
            incore.setdefault(cur, []).append(f"{ps}/{mca}")
    header = next((l for l in out.splitlines() if l.startswith("# llvm-mca")), "")
    return res, incore, header, fallbacks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--machine", default=os.path.join(ROOT, "testsuite/psim/machines/this-machine.toml"))
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--incore", default="table,llvm-mca", help="in-core models to predict with, comma separated (table, llvm-mca)")
    a = ap.parse_args()
    models = [m for m in a.incore.split(",") if m]
    if not models or any(m not in ("table", "llvm-mca") for m in models):
        sys.exit(f"--incore {a.incore}: table and/or llvm-mca")
    d = target_dir()
    xmpc = os.path.join(d, "xmpc")
    os.environ.setdefault("XMPC_RUNTIME_DIR", d)
    l0 = load()
    rows = []
    mca_header = ""
    fallbacks = []
    with tempfile.TemporaryDirectory(prefix="psim-validate-") as tmp:
        machines = [with_incore(a.machine, m, tmp) for m in models]
        tm = measure(xmpc, os.path.join(ROOT, T, "bench/psim/timer.c"), False, [], ["4000"], a.np, a.reps, tmp)
        ovh = next(v for v in tm.values() if v["count"] > 1)
        overhead = {st: ovh[st] for st in STATS}
        for name, src, blocks, defs, args, sets in CASES:
            if a.only and not any(o in name for o in a.only.split(",")):
                continue
            src = os.path.join(ROOT, src)
            meas = measure(xmpc, src, blocks, defs, args, a.np, a.reps, tmp)
            preds = []
            for mach in machines:
                pred, incore, mca_header, fb = predict(xmpc, mach, src, blocks, defs, sets, a.np)
                preds.append(pred)
                fallbacks += [f"{name}: {l}" for l in fb]
            for bid, v in sorted(meas.items()):
                # blocks of the iteration loops (run more than once), and EP's batch loop,
                # of at least MIN_BLOCK_S (the timer's overhead is ~1 us)
                whole = "ep.F90" in src and bid == 6
                if (v["count"] < 2 and not whole) or v["steady"] < MIN_BLOCK_S or any(bid not in p for p in preds):
                    continue
                errs = [(p[bid], [(p[bid] - (v[st] - overhead[st])) / (v[st] - overhead[st]) for st in STATS]) for p in preds]
                rows.append((name, bid, v, errs, " ".join(incore.get(bid, []))))
    print(f"# psim validation, machine {os.path.relpath(a.machine, ROOT)}, np={a.np}, {a.reps} token runs per case")
    print(f"# load average before: {' '.join(l0)}  after: {' '.join(load())}")
    print(f"# timer overhead per measured block (timer.c): min {overhead['min']:.3e} s, steady {overhead['steady']:.3e} s, subtracted")
    print(mca_header or "# llvm-mca: no comparison")
    for f in fallbacks:
        print(f"# fallback: {f}")
    print("# measured, rank 0, median of the runs: min_s its fastest execution (the undisturbed time the model predicts: this host is shared,")
    print("# and other tenants only add time), steady_s its mean without the first execution (first touch of pages), all_s its mean")
    cols = "".join(f" {'pred_' + m:>14} {'err_min':>8} {'err_stdy':>8}" for m in models)
    print(f"{'case':<18} {'block':>5} {'count':>5} {'min_s':>10} {'steady_s':>10} {'all_s':>10}{cols}  in-core cy/it per nest, table/llvm-mca")
    for name, bid, v, errs, ic in rows:
        cols = "".join(f" {p:>14.4e} {e[0]*100:>7.1f}% {e[1]*100:>7.1f}%" for p, e in errs)
        print(f"{name:<18} {bid:>5} {v['count']:>5} {v['min']:>10.4e} {v['steady']:>10.4e} {v['mean']:>10.4e}{cols}  {ic}")
    for k, model in enumerate(models):
        for si, st in enumerate(STATS):
            if rows:
                errs = [abs(r[3][k][1][si]) for r in rows]
                worst = max(rows, key=lambda r: abs(r[3][k][1][si]))
                print(f"in-core {model:<8} vs {st:<6}: median |error| {statistics.median(errs)*100:.1f}%  worst {worst[3][k][1][si]*100:+.1f}% ({worst[0]} block {worst[1]})  blocks {len(rows)}")

if __name__ == "__main__":
    main()
