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
    2.5%; none below 6 rounds, and then no verdict),
  - the verdict: `ok` (paired median within the target), `tie` (above it, but the
    interval still contains it: not distinguishable from meeting it at this noise),
    `FAIL` (the whole interval above the target: significantly missed).

Usage: stats.py RUNS.TSV LANGS APPS NPS BINDS NHALO   (called by table.sh)
       stats.py reflect LAUNCHES.TSV                 (called by bind.sh; see reflect_main)
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
    if lo is None:
        v = "-"  # fewer than 6 pairs (QUICK=1): no interval, no verdict
    elif m <= limit:
        v = "ok"
    elif lo <= limit:
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
        print("median over rounds, microseconds; xmp core/none: median of the per-round ratios, 95% CI).")
        print("Not judged here: the on-node reflect is bimodal per launch, and N launches per binding")
        print("cannot tell the modes apart; bind.sh (run by table.sh after this) judges it over many.")
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
                        pm, lo, hi, _ = summary(paired(core, none, 2), 1.00)
                        ci = f" [{f3(lo)}-{f3(hi)}]" if lo is not None else ""
                        line += f"  xmp core/none {f3(pm)}{ci}"
                    print(line)
    print()
    print(f"targets: {verdicts['ok']} ok, {verdicts['tie']} tie (not distinguishable at this noise), "
          f"{verdicts['FAIL']} FAIL (significantly missed)")
    if bad_checksum:
        print("checksum differs from the sequential program's (or is missing) in a row above")
    return 1 if bad_checksum else 0


def split_modes(xs, gap=1.5):
    """The threshold between a fast and a slow mode of launch medians: the geometric
    middle of the widest gap (by ratio) between consecutive sorted values, if that gap
    is at least `gap`; None when the values form one mode."""
    xs = sorted(x for x in xs if x)
    best, at = 0.0, None
    for a, b in zip(xs, xs[1:]):
        if b / a > best:
            best, at = b / a, math.sqrt(a * b)
    return at if best >= gap else None


def fisher_greater(a, b, c, d):
    """One-sided Fisher exact p: P(X >= a) for the 2x2 table [[a, b], [c, d]] with its
    margins fixed (is the first row's share of the first column larger?)."""
    n1, k, n = a + b, a + c, a + b + c + d
    total = math.comb(n, k)
    return sum(math.comb(n1, x) * math.comb(n - n1, k - x) for x in range(a, min(n1, k) + 1)) / total


def ratio_cell(ratios):
    """`median [CI] (n)` of sorted bound/unbound ratios, and the verdict against 1.00."""
    m, lo, hi, verdict = summary(ratios, 1.0)
    ci = f"[{f3(lo)}-{f3(hi)}]" if lo is not None else "[no CI]"
    return f"{f3(m)} {ci} ({len(ratios)})", verdict


def reflect_main(path):
    """bind.sh's launches: per (reflect, version), L launches unbound and bound in
    back-to-back pairs, each launch's median reflect time (us) and its job's context
    switches, sched_yield and futex calls per reflect.

    The launch medians fall in a fast and a slow mode (split_modes, per reflect and
    version: a gap of at least 1.5x). Printed per binding: the median and count of each
    mode, the slow share; then the target bound <= unbound for xmpc, judged on the
    pairs whose two launches fell in the same mode (paired ratio, 95% CI, verdict as in
    `summary`), and failed outright if bound launches land in the slow mode
    significantly more often (one-sided Fisher exact p < 0.05). The ratio over all pairs
    is shown too: it mixes the modes."""
    data = {}
    with open(path) as f:
        for line in f:
            i, refl, v, bind, h1, cs, y, fu = line.rstrip("\n").split("\t")
            num = lambda s: float(s) if s not in ("", "-") else None
            data.setdefault((refl, v), {}).setdefault(bind, {})[int(i)] = (num(h1), num(cs), num(y), num(fu))
    md = lambda xs: statistics.median(xs) if xs else None
    us = lambda x: "-" if x is None else f"{x:.2f}"
    print("Per binding: launches in the fast / slow mode, median of their launch medians (us);")
    print("switches, yields, futex: median per reflect (whole job, both ranks)")
    fmt = "| {:<10} | {:<3} | {:<5} | {:>13} | {:>13} | {:>6} | {:>8} | {:>6} | {:>6} |"
    print(fmt.format("reflect", "ver", "bind", "fast us (n)", "slow us (n)", "slow %", "switches", "yields", "futex"))
    print("|------------|-----|-------|---------------|---------------|--------|----------|--------|--------|")
    modes = {}
    for (refl, v), binds in sorted(data.items()):
        cut = split_modes([x[0] for b in binds.values() for x in b.values() if x[0]])
        modes[(refl, v)] = cut
        for bind in ("none", "core"):
            runs = binds.get(bind, {}).values()
            h = [x[0] for x in runs if x[0]]
            fast = [x for x in h if cut is None or x < cut]
            slow = [x for x in h if cut is not None and x >= cut]
            col = lambda j: f3(md([x[j] for x in runs if x[j] is not None]))
            share = f"{100 * len(slow) / len(h):.0f}" if h else "-"
            print(fmt.format(refl, v, bind, f"{us(md(fast))} ({len(fast)})", f"{us(md(slow))} ({len(slow)})" if cut else "- (0)",
                             share, col(1), col(2), col(3)))
    print()
    print("Target: xmpc's reflect bound <= unbound. Paired ratio core/none of back-to-back launches;")
    print("same mode: only the pairs whose two launches fell in the same mode; slow share: one-sided")
    print("Fisher exact p that bound launches fall in the slow mode more often (FAIL below 0.05)")
    fmt = "| {:<10} | {:<3} | {:>25} | {:>30} | {:>8} | {:<4} |"
    print(fmt.format("reflect", "ver", "all pairs [95% CI] (n)", "same mode [95% CI] (n)", "slow p", "verd"))
    print("|------------|-----|---------------------------|--------------------------------|----------|------|")
    verdicts = {"ok": 0, "tie": 0, "FAIL": 0}
    for (refl, v), binds in sorted(data.items()):
        core, none, cut = binds.get("core", {}), binds.get("none", {}), modes[(refl, v)]
        slow = lambda x: cut is not None and x >= cut
        pairs = [(core[i][0], none[i][0]) for i in sorted(set(core) & set(none)) if core[i][0] and none[i][0]]
        every = sorted(c / n for c, n in pairs)
        same_mode = sorted(c / n for c, n in pairs if slow(c) == slow(n))
        nc, nn = (sum(1 for x in b.values() if x[0]) for b in (core, none))
        a = sum(1 for x in core.values() if x[0] and slow(x[0]))
        c = sum(1 for x in none.values() if x[0] and slow(x[0]))
        p = fisher_greater(a, nc - a, c, nn - c) if nc and nn else None
        all_cell, _ = ratio_cell(every)
        same_cell, verdict = ratio_cell(same_mode)
        if v != "xmp":
            verdict = "-"
        elif p is not None and p < 0.05:
            verdict = "FAIL"
        if verdict in verdicts:
            verdicts[verdict] += 1
        print(fmt.format(refl, v, all_cell, same_cell, f3(p), verdict))
    print()
    print(f"reflect targets: {verdicts['ok']} ok, {verdicts['tie']} tie, {verdicts['FAIL']} FAIL")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["reflect"]:
        sys.exit(reflect_main(sys.argv[2]))
    sys.exit(main())
