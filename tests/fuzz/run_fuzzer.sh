#!/usr/bin/env bash
# One harness, briefly: replays every committed seed (corpus/<name>) and regression input
# (regressions/<name>), then fuzzes for SECONDS more. New inputs go to WORK/<name>/corpus, never
# into the source tree; a crash is written to WORK/<name>/ and fails the run.
# usage: run_fuzzer.sh BINARY NAME SOURCE_DIR WORK_DIR SECONDS [extra libFuzzer flags...]
set -u
bin="$1"; name="$2"; src="$3"; work="$4/$2"; secs="$5"; shift 5
mkdir -p "$work/corpus"
dirs=("$work/corpus")
for d in "$src/corpus/$name" "$src/regressions/$name"; do
  [[ -d "$d" ]] && dirs+=("$d")
done
# -timeout: an input running over 10 s is a hang. -rss_limit_mb: a parser that lets one input
# allocate gigabytes is a finding too. libFuzzer's -max_len defaults to the largest seed (>= 4 KB).
# LeakSanitizer runs with suppressions for libtorch's own leaks (lsan.supp). libFuzzer checks for
# leaks after every input that allocated more than it freed; fuzz_pth leaks inside libtorch on every
# refused zip, which would make that check (a scan of libtorch's heap) run on nearly every input,
# 40x slower, so for it leaks are checked once, when the process exits, over all inputs together.
export LSAN_OPTIONS="suppressions=$src/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
extra=()
[[ "$name" == pth ]] && extra=(-detect_leaks=0)
exec "$bin" -timeout=10 -rss_limit_mb=4096 -max_total_time="$secs" -print_final_stats=1 \
  -artifact_prefix="$work/" "${extra[@]}" "$@" "${dirs[@]}"
