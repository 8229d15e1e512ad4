#!/usr/bin/env bash
# CPU time per execution of each fuzz target (testsuite/fuzz/README.md, "Cost of one
# execution"): a fixed number of executions from the seeds alone (a fresh temporary
# corpus, -seed=1), timed with /usr/bin/time (user + system: far less sensitive to the
# machine's load than executions per second of wall time). Needs the instrumented
# binaries (testsuite/fuzz/run.sh builds them). Usage:
#   testsuite/bench/fuzz/cost.sh [RUNS] [TARGET...]     (default 5000, all four)
set -euo pipefail
fuzz=$(cd "$(dirname "$0")/../../fuzz" && pwd)
runs=${1:-5000}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(c_front fortran_front directive readers)
bin="$fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release"
declare -A maxlen=([c_front]=2048 [fortran_front]=2048 [directive]=512 [readers]=8192)
[ -d "$fuzz/seeds/c_front" ] || { echo "no seeds: run testsuite/fuzz/run.sh 1 first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '# %s, load %s, %s executions each from the seeds\n' "$(date -u +%FT%TZ)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$runs"
printf '%-14s %10s %10s %12s %14s\n' target executions cpu_s ms_per_exec exec_per_cpu_s
for t in "${targets[@]}"; do
    mkdir -p "$tmp/$t"
    /usr/bin/time -f '%U %S %e' -o "$tmp/$t.time" "$bin/$t" "$tmp/$t" "$fuzz/seeds/$t" -runs="$runs" \
        -seed=1 -timeout=2 -rss_limit_mb=2048 -max_len="${maxlen[$t]}" -print_final_stats=1 \
        -artifact_prefix="$tmp/$t-" >"$tmp/$t.log" 2>&1 || { echo "$t: finding, see $tmp/$t.log" >&2; cp "$tmp/$t.log" "$fuzz/artifacts/cost-$t.log"; }
    n=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$tmp/$t.log" | grep -o '[0-9]*$' || echo 0)
    read -r u s e < "$tmp/$t.time"
    awk -v t="$t" -v n="$n" -v u="$u" -v s="$s" 'BEGIN {c = u + s; printf "%-14s %10d %10.2f %12.3f %14.0f\n", t, n, c, n ? 1000 * c / n : 0, c ? n / c : 0}'
done
