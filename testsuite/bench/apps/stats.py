#!/usr/bin/env python3
"""The issue-22 table from the raw runs of table.sh (runs.tsv), with paired ratios.

Each run of table.sh is one line: round, key (lang.app.version.decomposition), np,
bind, wall time, CPU time, halo1 (isolated reflect, s), checksum. Within a round every
configuration runs once, and table.sh runs a program right next to its reference (the
sequential program at 1 process, the expert MPI version at 2; for the reflect, the bound
run next to the unbound one), so a pair ran seconds apart, under the same neighbours.
On this host the wall time of one configuration moves by 10-30% between rounds (a
2-vCPU VM whose memory bandwidth and core placement change under it), so a ratio of
two medians taken over different rounds carries that drift; the ratio of each round's
pair does not. For each target this prints:

  - `paired`: the median over rounds of (time / reference time in the same round),
  - `95% CI`: a distribution-free confidence interval of that median (order statistics
    x(k)..x(n+1-k) of the sorted ratios, k the largest with P(Binomial(n, 1/2) < k) <=
    2.5%; none below 6 rounds),
  - the verdict: `ok` (paired median within the target), `tie` (above it, but the
    interval still contains it: not distinguishable from meeting it at this noise),
    `FAIL` (the whole interval above the target: significantly missed).

Usage: stats.py RUNS.TSV LANGS APPS NPS BINDS NHALO   (called by table.sh)
"""
import math
import statistics
import sys

NAMES = {"lap": "Laplace", "him": "Himeno"}


def load(path):
    runs = {}  # (key, np, bind) -> {round: (time, cpu, halo1, checksum)}
    with open(path) as f:
        for line in f:
            r, key, np_, bind, t, cpu, h1, cs = line.rstrip("\n").split("\t")
            num = lambda s: float(s) if s not in ("", "-") else None
            runs.setdefault((key, np_, bind), {})[int(r)] = (num(t), num(cpu), num(h1), cs)
    return runs


def ci_rank(n):
    """Largest k with P(Binomial(n, 1/2) <= k - 1) <= 0.025 (0: no interval)."""
    k, tail = 0, 0.0
    while k < n:
        tail += math.comb(n, k) / 2**n
        if tail > 0.025:
            break
        k += 1
    return k


def paired(a, b, field):
    """Per-round ratios a/b of `field` over the rounds both ran."""
    out = []
    for r in sorted(set(a) & set(b)):
        x, y = a[r][field], b[r][field]
        if x is not None and y is not None and y > 0:
            out.append(x / y)
    return sorted(out)


def summary(ratios, limit):
    """(median, lo, hi, verdict) of sorted per-round ratios against a target limit."""
    if not ratios:
        return None, None, None, "-"
    m = statistics.median(ratios)
    k = ci_rank(len(ratios))
    lo, hi = (ratios[k - 1], ratios[-k]) if k > 0 else (None, None)
    if m <= limit:
        v = "ok"
    elif lo is not None and lo <= limit:
        v = "tie"
    else:
        v = "FAIL"
    return m, lo, hi, v


def med(cells, field):
    xs = [c[field] for c in cells.values() if c[field] is not None]
    return statistics.median(xs) if xs else None


def f3(x):
    return "-" if x is None else f"{x:.3f}"


def same(a, b):
    try:
        x, y = float(a), float(b)
    except (TypeError, ValueError):
        return "missing"
    return "ok" if abs(x - y) <= 1e-6 * abs(y) + 1e-12 else "MISMATCH"


def main():
    path, langs, apps, nps, binds, nhalo = sys.argv[1:7]
    langs, apps, nps, binds = langs.split(), apps.split(), nps.split(), binds.split()
    runs = load(path)
    verdicts = {"ok": 0, "tie": 0, "FAIL": 0}
    bad_checksum = False
    fmt = "| {:<4} | {:<7} | {:<2} | {:<4} | {:<11} | {:>9} | {:>6} | {:>6} | {:<14} | {:>6} | {:<13} | {:<4} | {:<8} |"
    print("time: median wall s of the timed loop; /seq, /MPI: ratio of the medians; paired: median of")
    print("the per-round ratios to the reference of the target (seq at 1 process, MPI at 2), with its")
    print("95% confidence interval; verdict ok / tie (interval contains the target) / FAIL (it does not)")
    print(fmt.format("lang", "app", "np", "bind", "version", "time s", "/seq", "/MPI", "target", "paired", "95% CI", "verd", "checksum"))
    print("|------|---------|----|------|-------------|-----------|--------|--------|----------------|--------|---------------|------|----------|")
    for lang in langs:
        for app in apps:
            for bind in binds:
                seq = runs.get((f"{lang}.{app}.seq.-", "1", bind), {})
                s = med(seq, 0)
                sc = next((c[3] for c in seq.values()), None)
                print(fmt.format(lang, NAMES[app], 1, bind, "sequential", f3(s), "1.000", "-", "-", "-", "-", "-", "ref"))
                for np_ in nps:
                    for dec in ("contig", "strided"):
                        mpi = runs.get((f"{lang}.{app}.mpi.{dec}", np_, bind), {})
                        m = med(mpi, 0)
                        for v in ("mpi", "xmp"):
                            cells = runs.get((f"{lang}.{app}.{v}.{dec}", np_, bind), {})
                            t = med(cells, 0)
                            checks = {same(c[3], sc) for c in cells.values()} or {"missing"}
                            ok = "ok" if checks == {"ok"} else sorted(checks - {"ok"})[0]
                            bad_checksum |= ok != "ok"
                            rs = t / s if t and s else None
                            rm = t / m if t and m else None
                            if v == "mpi" and np_ != "1":
                                target, ratios, limit = "-", [], None
                            elif v == "mpi":
                                target, ratios, limit = "<=1.05 seq", paired(cells, seq, 0), 1.05
                            elif np_ == "1":
                                target, ratios, limit = "<=1.03 seq", paired(cells, seq, 0), 1.03
                            else:
                                target, ratios, limit = "<=1.00 MPI", paired(cells, mpi, 0), 1.00
                            pm, lo, hi, verdict = summary(ratios, limit) if limit else (None, None, None, "-")
                            if verdict in verdicts:
                                verdicts[verdict] += 1
                            ci = f"{f3(lo)}-{f3(hi)}" if lo is not None else "-"
                            print(fmt.format(lang, NAMES[app], np_, bind, f"{v} {dec}", f3(t), f3(rs), f3(rm), target, f3(pm), ci, verdict, ok))
    if "lap" in apps and len([n for n in nps if n != "1"]):
        print()
        print(f"Isolated reflect (Laplace; per run the median of {nhalo} reflects, each after a barrier;")
        print("median over rounds, microseconds; core/none: median of the per-round ratios, 95% CI):")
        for lang in langs:
            for np_ in nps:
                if np_ == "1":
                    continue
                for dec in ("contig", "strided"):
                    line = f"  {lang} np={np_} {dec:<7}:"
                    for bind in binds:
                        for v in ("mpi", "xmp"):
                            h = med(runs.get((f"{lang}.lap.{v}.{dec}", np_, bind), {}), 2)
                            line += f" {v}/{bind} {'-' if h is None else f'{h * 1e6:.2f}'}"
                    if "none" in binds and "core" in binds:
                        core = runs.get((f"{lang}.lap.xmp.{dec}", np_, "core"), {})
                        none = runs.get((f"{lang}.lap.xmp.{dec}", np_, "none"), {})
                        pm, lo, hi, verdict = summary(paired(core, none, 2), 1.00)
                        if verdict in verdicts:
                            verdicts[verdict] += 1
                        ci = f" [{f3(lo)}-{f3(hi)}]" if lo is not None else ""
                        line += f"  xmp core/none {f3(pm)}{ci} (target <= 1.00: {verdict})"
                    print(line)
    print()
    print(f"targets: {verdicts['ok']} ok, {verdicts['tie']} tie (not distinguishable at this noise), "
          f"{verdicts['FAIL']} FAIL (significantly missed)")
    if bad_checksum:
        print("checksum differs from the sequential program's (or is missing) in a row above")
    return 1 if bad_checksum else 0


if __name__ == "__main__":
    sys.exit(main())
