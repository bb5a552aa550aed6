#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz and fuzzes every target for SECONDS
# (default 60), all targets at once (FUZZ_PARALLEL of them at a time, default: the number of
# cores). Fails on any crash, leak, timeout (> 10 s for one input), out-of-memory (> 2048 MB)
# or sanitizer report; the input that caused it is left in build-fuzz/artifacts/<target>/.
# The seed corpora in tests/fuzz/corpus/ are read, never written: new inputs go to
# build-fuzz/corpus/<target>/, which later runs reuse.
#
#   scripts/fuzz.sh            # 60 s per target
#   scripts/fuzz.sh 600        # a longer local run
#   scripts/fuzz.sh 30 fuzz_cli_args   # one target
#   TOPOCAST_FUZZ_BUILD=build-asan scripts/fuzz.sh 40   # CI: the targets scripts/sanitize.sh built
set -euo pipefail

seconds=${1:-60}
shift || true
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath -m "${TOPOCAST_FUZZ_BUILD:-$root/build-fuzz}")  # absolute: fuzz_cli_args changes directory
all_targets=(fuzz_topology fuzz_cli_args fuzz_scenario_json fuzz_schedule_json fuzz_measured_json fuzz_render_options fuzz_schedule_csv fuzz_msccl_xml fuzz_goal)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")
parallel=${FUZZ_PARALLEL:-$(nproc)}

# -O1 -gline-tables-only: libFuzzer's usual flags; crash reports keep file and line. A build folder
# already configured with TOPOCAST_FUZZ=ON (the sanitizer build) is used as it is.
if ! grep -qs '^TOPOCAST_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DTOPOCAST_FUZZ=ON -DTOPOCAST_BUILD_APP=OFF -DTOPOCAST_BUILD_TESTS=OFF -DTOPOCAST_BUILD_BENCH=OFF \
  -DTOPOCAST_BUILD_MPI=OFF >/dev/null
fi
cmake --build "$build" -j"${JOBS:-2}" --target "${targets[@]}"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

run_one() {
  local t=$1
  local corpus="$build/corpus/$t" artifacts="$build/artifacts/$t" log="$build/logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  rm -f "$artifacts"/*
  local dict=()
  [ -f "$root/tests/fuzz/dict/$t.dict" ] && dict=(-dict="$root/tests/fuzz/dict/$t.dict")
  local rc=0
  "$build/tests/fuzz/$t" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$corpus" "$root/tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$artifacts")" ]; then
    echo "FAIL $t (exit $rc); last lines of $log:"
    tail -n 40 "$log"
    ls -l "$artifacts"
    return 1
  fi
  echo "ok   $t: $(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$') runs in ${seconds} s, corpus $(ls "$corpus" | wc -l) new inputs"
}

status=0
pids=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$parallel" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do
  wait "$p" || status=1
done
[ $status -eq 0 ] && echo "fuzz: all ${#targets[@]} targets ran ${seconds} s without a finding"
exit $status
