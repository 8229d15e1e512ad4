#!/usr/bin/env python3
"""TCA/InfiniBand hybrid collectives (runtime/lib/tca, docs/tca.md): two tables.

1. BSIM replay of the hybrid schedules on a platform with PEACH2's figures
   (DMA 2.0 us per descriptor chain, PIO 1.0 us; seed 002 s5.2.3) and
   InfiniBand, next to the thesis' allreduce figures (table 6.3).
2. This machine, 2 processes: hybrid (TCA emulated over a shared-memory
   window) against the same schedule over MPI and MPICH's own algorithms,
   forced with MPIR_CVAR_*_INTRA_ALGORITHM.

    testsuite/bench/tca/run.py [--quick] [--no-local] [--no-bsim]

Run from the repository root. Prints the load average next to the timings.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
REL = os.path.join(ROOT, "target", "release")
US = 1e-6

# seed 002 table 6.3: 4-byte float allreduce, 2 subclusters, MV2GDR vs hybrid
PAPER = {8: (18.322, 13.390), 16: (22.835, 16.007)}
PIO = 1.0 * US


def sh(cmd, env=None, **kw):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run(cmd, env=e, check=True, text=True, capture_output=True, **kw).stdout


def load():
    return open("/proc/loadavg").read().split()[0:3]


def build():
    subprocess.run(["nice", "cargo", "build", "--release", "-q", "-p", "xmpc-tca", "-p", "xmpc-bsim"], cwd=ROOT, check=True)


def fit(dma):
    """Two unknowns from the 8-node row: o (host software cost per step, on
    every path) and L (InfiniBand latency per message). Every step of the
    recursive doubling costs o + link latency; both sides stage the 4 bytes
    device -> host and back (2 x DMA).
      MPI-only 8 nodes: 2 DMA + 3 (o + L)              = 18.322 us
      hybrid   8 nodes: 2 DMA + 2 (o + PIO) + (o + L)  = 13.390 us"""
    m8, h8 = PAPER[8][0] * US, PAPER[8][1] * US
    ol = (m8 - 2 * dma) / 3
    o = (h8 - 2 * dma - ol) / 2 - PIO
    return o, ol - o


def platform(path, lat_ib, o, intra, per_node):
    with open(path, "w") as f:
        f.write(f"""name = "ha-pacs-tca"
[network]            # InfiniBand QDR (MV2GDR), fitted: see run.py fit()
latency = {lat_ib:.6e}
bandwidth = 3.2e9
[intranode]          # TCA/PEACH2 inside a subcluster
latency = {intra:.6e}
bandwidth = 3.2e9
[overheads]
recv = {o:.6e}
[nodes]
ranks_per_node = {per_node}
""")


def bsim(tmp, op, p, k, nbytes, plat, stage):
    skel = os.path.join(tmp, f"{op}_{p}_{k}.c")
    exe = skel[:-2]
    src = sh([os.path.join(REL, "tca-skel"), op, str(p), str(k), str(nbytes), f"{stage:e}", f"{stage:e}", "0"])
    open(skel, "w").write(src)
    sh(["cc", "-O1", "-I", os.path.join(ROOT, "runtime/tools/bsim/include"), skel, "-o", exe,
        os.path.join(REL, "libxmpc_bsim_main.a"), os.path.join(REL, "libxmpc_bsim.a"),
        "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lrt"])
    out = sh([exe], env={"BSIM_NP": str(p), "BSIM_PLATFORM": plat})
    return float(re.search(r"predicted time: (\S+) s", out).group(1))


def bsim_table():
    print("## BSIM replay of the hybrid schedules (PEACH2 figures; TCA emulated over a shared-memory window at run time, modelled here)\n")
    with tempfile.TemporaryDirectory() as tmp:
        for dma, label in [(2.0 * US, "DMA 2.0 us (on-chip descriptors, the thesis' setting)"), (2.3 * US, "DMA 2.3 us (descriptors in host memory)")]:
            o, lat = fit(dma)
            print(f"{label}; PIO {PIO / US:.1f} us; fitted on the 8-node row: o = {o / US:.3f} us per step, IB latency L = {lat / US:.3f} us\n")
            print("| nodes | paper MPI | BSIM MPI | paper hybrid | BSIM hybrid | paper speed-up | BSIM speed-up | error |")
            print("|---|---|---|---|---|---|---|---|")
            for p in (8, 16):
                mp = os.path.join(tmp, f"mpi{p}.toml")
                hp = os.path.join(tmp, f"hyb{p}.toml")
                platform(mp, lat, o, lat, 1)
                platform(hp, lat, o, PIO, p // 2)
                tm = bsim(tmp, "allreduce", p, 1, 4, mp, dma)
                th = bsim(tmp, "allreduce", p, p // 2, 4, hp, dma)
                pm, ph = PAPER[p]
                sp, sb = pm / ph, tm / th
                role = "calibration" if p == 8 else "prediction"
                print(f"| {p} ({role}) | {pm:.2f} | {tm / US:.2f} | {ph:.2f} | {th / US:.2f} | {sp:.2f}x | {sb:.2f}x | {100 * (sb / sp - 1):+.1f}% |")
            print()
        # bcast / allgather: chained DMA inside the subcluster, GPU-direct, no staging
        o, lat = fit(2.0 * US)
        print("Bcast and allgather (8 B, chained DMA 2.0 us inside the subcluster, no staging; the thesis reports up to 1.21x/1.14x for bcast at 8/16 nodes and up to 1.47x for allgather, over all sizes):\n")
        print("| collective | nodes | BSIM MPI (us) | BSIM hybrid (us) | speed-up |")
        print("|---|---|---|---|---|")
        for op in ("bcast", "allgather"):
            for p in (8, 16):
                mp = os.path.join(tmp, f"m{op}{p}.toml")
                hp = os.path.join(tmp, f"h{op}{p}.toml")
                platform(mp, lat, o, lat, 1)
                platform(hp, lat, o, 2.0 * US, p // 2)
                tm = bsim(tmp, op, p, 1, 8, mp, 0.0)
                th = bsim(tmp, op, p, p // 2, 8, hp, 0.0)
                print(f"| {op} | {p} | {tm / US:.2f} | {th / US:.2f} | {tm / th:.2f}x |")
        print()


FORCED = {
    "allreduce": ("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", ["recursive_doubling", "reduce_scatter_allgather"]),
    "bcast": ("MPIR_CVAR_BCAST_INTRA_ALGORITHM", ["binomial", "scatter_recursive_doubling_allgather", "scatter_ring_allgather"]),
    "allgather": ("MPIR_CVAR_ALLGATHER_INTRA_ALGORITHM", ["recursive_doubling", "brucks", "ring"]),
}


def bench(iters, blocks, only=None, env=None):
    cmd = ["mpiexec", "-n", "2", os.path.join(REL, "tca-bench"), str(iters), str(blocks)] + ([only] if only else [])
    rows = {}
    for line in sh(cmd, env=env).splitlines():
        f = line.split()
        if len(f) == 5 and f[0] != "stats":
            rows[(f[0], int(f[1]), f[2])] = (float(f[3]), float(f[4]))
    return rows


def local_table(quick):
    iters, blocks = (300, 5) if quick else (2000, 15)
    print("## This machine, 2 processes, one subcluster (TCA emulated over a shared-memory window; MPI = MPICH over shared memory)\n")
    l0 = load()
    base = bench(iters, blocks)
    forced = {}
    for coll, (var, algs) in FORCED.items():
        for alg in algs:
            r = bench(iters, blocks, coll, {var: alg, "MPIR_CVAR_DEVICE_COLLECTIVES": "none"})
            for (c, b, v), t in r.items():
                if v == "MPICH":
                    forced[(c, b, alg)] = (t, r[(c, b, "hybrid")])
    l1 = load()
    print(f"min / median of {blocks} blocks of {iters} calls, microseconds per call, rank 0; load average {' '.join(l0)} before, {' '.join(l1)} after")
    print("(on a loaded 2-core machine the median carries preemptions: compare the minima)\n")
    print("| collective | bytes | hybrid (TCA emulated) | same schedule over MPI | MPICH auto | MPICH auto / hybrid (min, median) |")
    print("|---|---|---|---|---|---|")
    for (c, b, v), t in sorted(base.items()):
        if v != "hybrid":
            continue
        m, s = base[(c, b, "MPICH")], base[(c, b, "schedule-over-MPI")]
        print(f"| {c} | {b} | {t[0]:.3f} / {t[1]:.3f} | {s[0]:.3f} / {s[1]:.3f} | {m[0]:.3f} / {m[1]:.3f} | {m[0] / t[0]:.2f}x, {m[1] / t[1]:.2f}x |")
    print("\nMPICH's algorithms forced (MPIR_CVAR_*_INTRA_ALGORITHM, MPIR_CVAR_DEVICE_COLLECTIVES=none), each run with the hybrid beside it:\n")
    print("| collective | bytes | MPICH algorithm | MPICH | hybrid, same run | MPICH / hybrid (min, median) |")
    print("|---|---|---|---|---|---|")
    for (c, b, alg), (m, h) in sorted(forced.items()):
        print(f"| {c} | {b} | {alg} | {m[0]:.3f} / {m[1]:.3f} | {h[0]:.3f} / {h[1]:.3f} | {m[0] / h[0]:.2f}x, {m[1] / h[1]:.2f}x |")
    print()


def main():
    args = sys.argv[1:]
    build()
    if "--no-bsim" not in args:
        bsim_table()
    if "--no-local" not in args:
        local_table("--quick" in args)


if __name__ == "__main__":
    main()
