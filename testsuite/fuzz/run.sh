#!/usr/bin/env bash
# Coverage-guided fuzzing of xmpc with libFuzzer on the stable toolchain
# (testsuite/fuzz/README.md). Usage:
#   testsuite/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#   testsuite/fuzz/run.sh --runs N [--parallel] [TARGET...]
# Default 60 s per target, all targets. `--runs N`: each target runs exactly N
# executions (libFuzzer -runs=N, no time limit); `--parallel`: the targets run at the
# same time (one process each) instead of one after the other. Prints the executions
# of each target; exits non-zero if a target found a crash (the input is left in
# testsuite/fuzz/artifacts/, the log in artifacts/TARGET.log).
# CI runs it with a short time (test.sh); a long run is e.g. `run.sh 3600` or
# `run.sh --runs 1000000 --parallel c_front fortran_front`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
secs=60
runs=
parallel=
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; secs=0; shift 2 ;;
        --parallel) parallel=1; shift ;;
        [0-9]*) secs=$1; shift ;;
        *) break ;;
    esac
done
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(c_front fortran_front directive readers)

# sanitizer-coverage instrumentation: stable rustc flags (-C passes, -C llvm-args), no
# nightly, no cargo-fuzz. The libFuzzer runtime comes from the libfuzzer-sys crate.
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
 -Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"
export CARGO_TARGET_DIR="$here/target"
# an explicit --target keeps RUSTFLAGS off build scripts and proc macros (they must not
# be instrumented: nothing links the coverage runtime into them)
triple=$(rustc -vV | sed -n 's/^host: //p')
( cd "$here" && nice cargo build --release --bins -q --target "$triple" )
bin="$CARGO_TARGET_DIR/$triple/release"

# Seeds: the corpus and test programs (C and Fortran), a few directives and data files.
seeds="$here/seeds"
mkdir -p "$seeds"/{c_front,fortran_front,directive,readers} "$here/corpus" "$here/artifacts"
find "$root/testsuite/corpus" "$root/testsuite/xmp" "$root/testsuite/examples" -name '*.c' -size -64k 2>/dev/null | while read -r f; do cp "$f" "$seeds/c_front/$(echo "$f" | md5sum | cut -c1-16)"; done
find "$root/testsuite/corpus" "$root/testsuite/xmp" "$root/testsuite/examples" \( -name '*.f90' -o -name '*.F90' \) -size -64k 2>/dev/null | while read -r f; do { printf '\0'; cat "$f"; } > "$seeds/fortran_front/$(echo "$f" | md5sum | cut -c1-16)"; done
find "$root/testsuite/corpus" "$root/testsuite/xmp" -name '*.f' -size -64k 2>/dev/null | while read -r f; do { printf '\1'; cat "$f"; } > "$seeds/fortran_front/$(echo "$f" | md5sum | cut -c1-16)"; done
i=0
grep -h '^#pragma xmp ' "$root"/testsuite/corpus/c/*.c 2>/dev/null | sed 's/^#pragma //' | head -200 | while read -r d; do printf '\0%s' "$d" > "$seeds/directive/c$i"; i=$((i+1)); done
grep -hi '^!\$xmp ' "$root"/testsuite/corpus/f90/*.f90 2>/dev/null | sed 's/^!\$//' | head -200 | while read -r d; do printf '\1%s' "$d" > "$seeds/directive/f$((RANDOM))"; done
for f in "$root"/testsuite/bench/nsim/configs/*.toml; do { printf '\1'; cat "$f"; } > "$seeds/readers/n$(basename "$f")"; done
printf '\0{"format":"xmpc-prof/1","mpi_library":"m","command":"c","world_size":2,"timer":{"source":"t","ticks_per_ns":1,"calibration_pairs":1,"timer_pair_ns":1,"record_ns":1,"overhead_ns":1},"unreliable_factor":5,"ranks":[]}' > "$seeds/readers/prof"
printf '\3{"format":"xmpc-blocktimes/1","ranks":2,"blocks":[{"id":1,"mean_s":0.5,"per_rank":[]}]}' > "$seeds/readers/bt"
printf '\2XMPCTRC\0\1\0\0\0\0\0\0\0\2\0\0\0\0\0\0\0\0\0\0\0' > "$seeds/readers/trace"
for f in "$root"/testsuite/bench/bsim/*.toml; do { printf '\4'; cat "$f"; } > "$seeds/readers/b$(basename "$f")"; done
for f in "$root"/testsuite/psim/machines/*.toml; do { printf '\5'; cat "$f"; } > "$seeds/readers/m$(basename "$f")"; done
# the kept regressions (regressions/, replayed by cargo test) seed their targets too
for f in "$here"/regressions/c/*; do cp "$f" "$seeds/c_front/r$(basename "$f")"; done
for f in "$here"/regressions/f90/*; do { printf '\0'; cat "$f"; } > "$seeds/fortran_front/r$(basename "$f")"; done
for f in "$here"/regressions/f/*; do { printf '\1'; cat "$f"; } > "$seeds/fortran_front/r$(basename "$f")"; done
for t in directive readers; do cp "$here"/regressions/$t/* "$seeds/$t/"; done

# Largest input per target (bytes; MAXLEN_<target> overrides). The front-end work is
# linear in the input (callgrind: about 2,300 instructions per byte for the driver's
# --emit=source alone), so with -max_len=65536 libFuzzer's length control let inputs
# grow to 64 KiB and each execution cost 30x more (12,600 c_front executions in the
# time the directive target ran 910,000). With
# 2 KiB inputs an execution costs about 1.1 ms of CPU (libFuzzer's own bookkeeping
# and tree-sitter are most of it). 2 KiB holds a declaration block, a loop nest and
# its directives; the directive target's input is one directive.
declare -A maxlen=([c_front]=2048 [fortran_front]=2048 [directive]=512 [readers]=8192)

# One target: libFuzzer with the flags of a run, its log in artifacts/TARGET.log; the
# summary line on stdout; status 1 on a finding.
fuzz_one() {
    local t=$1
    mkdir -p "$here/corpus/$t"
    local log="$here/artifacts/$t.log"
    local var="MAXLEN_$t"
    local len=${!var:-${maxlen[$t]:-4096}}
    local extra=()
    [ -z "$runs" ] || extra=(-runs="$runs")
    # -timeout 2: an input taking over 2 s is a hang; -rss_limit_mb: unbounded
    # allocations. nice (NICE, default 19): the machines this runs on are shared.
    local start r n cpu
    start=$(date +%s)
    rm -f "$log.cpu"
    echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg): nice -n ${NICE:-19} $bin/$t corpus/$t seeds/$t -max_total_time=$secs ${extra[*]} -timeout=2 -rss_limit_mb=2048 -max_len=$len -print_final_stats=1" >"$log"
    # /usr/bin/time: the CPU time of the run (user + system), a figure the load
    # changes far less than the executions per second of wall time
    if /usr/bin/time -f 'cpu_s %U %S' -a -o "$log.cpu" nice -n "${NICE:-19}" "$bin/$t" \
        "$here/corpus/$t" "$seeds/$t" -max_total_time="$secs" "${extra[@]}" \
        -timeout=2 -rss_limit_mb=2048 -max_len="$len" -print_final_stats=1 \
        -artifact_prefix="$here/artifacts/$t-" >>"$log" 2>&1; then
        r=ok
    else
        r=FOUND
    fi
    n=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    cpu=$(awk '/^cpu_s/ {c = $2 + $3} END {print c + 0}' "$log.cpu")
    printf '%-14s %-5s %12s executions in %s s, %s s of CPU = %s ms each (max_len %s, load %s)\n' \
        "$t" "$r" "$n" "$(( $(date +%s) - start ))" "$cpu" \
        "$(awk -v c="$cpu" -v n="$n" 'BEGIN {if (n > 0) printf "%.2f", 1000 * c / n; else print "?"}')" \
        "$len" "$(cut -d' ' -f1-3 /proc/loadavg)"
    [ "$r" = ok ]
}

status=0
if [ -n "$parallel" ]; then
    pids=()
    for t in "${targets[@]}"; do
        fuzz_one "$t" & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || status=1; done
else
    for t in "${targets[@]}"; do
        fuzz_one "$t" || status=1
    done
fi
exit $status
