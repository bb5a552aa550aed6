#!/usr/bin/env bash
# Reads ctest's JUnit report (ctest --output-junit FILE) and prints a table of the test cases that
# ran per suite, then fails if any suite ran fewer than its floor in tests/floors.txt (or ran none,
# or a floor names a suite that did not run at all). A ctest entry that runs many Catch2 cases at
# once (the app's) counts the cases from Catch2's own summary line in its output.
#
#   scripts/test-counts.sh build/ctest-junit.xml [COLUMN]
# COLUMN picks the floors of one kind of run in tests/floors.txt: 1 scripts/test.sh (default),
# 2 scripts/sanitize.sh --app, 3 scripts/sanitize.sh without the app. A floor of 0 means the suite
# is not part of that kind of run.
set -euo pipefail
report=${1:?usage: test-counts.sh JUNIT.xml [COLUMN]}
column=${2:-1}
floors=$(cd "$(dirname "$0")/.." && pwd)/tests/floors.txt
[ -f "$report" ] || { echo "test-counts: no ctest report at $report" >&2; exit 1; }

# One line per ctest entry: suite, status (run/fail/notrun), Catch2 cases in it.
awk '
  function flush() {
    if (name == "") return
    suite = name; sub(/:.*/, "", suite)
    if (cases == 0 && status != "notrun") cases = 1
    printf "%s\t%s\t%d\n", suite, status, cases
    name = ""
  }
  /<testcase / {
    flush()
    match($0, /name="[^"]*"/); name = substr($0, RSTART + 6, RLENGTH - 7)
    status = "run"; cases = 0
    if ($0 ~ /status="(notrun|disabled)"/) status = "notrun"
  }
  /<failure/ { if (name != "") status = "fail" }
  /<skipped/ { if (name != "") status = "notrun" }
  /All tests passed \([0-9]+ assertions? in [0-9]+ test cases?\)/ {
    match($0, /in [0-9]+ test case/); cases = substr($0, RSTART + 3, RLENGTH - 13) + 0
  }
  /test cases: *[0-9]+ \|/ { match($0, /test cases: *[0-9]+/); s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); cases = s + 0 }
  /<\/testcase>/ { flush() }
  END { flush() }
' "$report" | sort | awk -F'\t' -v floors="$floors" -v column="$column" '
  BEGIN {
    while ((getline line < floors) > 0) {
      if (line ~ /^[ \t]*(#|$)/) continue
      split(line, f, /[ \t]+/)
      if (f[1 + column] + 0 > 0) floor[f[1]] = f[1 + column] + 0
    }
  }
  {
    if (!($1 in entries)) { entries[$1] = 0; names[++n] = $1 }
    entries[$1]++; if ($2 == "fail") failed[$1]++; if ($2 == "notrun") notrun[$1]++; else cases[$1] += $3
  }
  END {
    bad = 0
    printf "%-10s %8s %10s %8s %8s  %s\n", "suite", "entries", "test cases", "floor", "failed", ""
    for (s in floor) if (!(s in entries)) { entries[s] = 0; names[++n] = s }
    for (i = 1; i <= n; i++) {
      s = names[i]; fl = (s in floor) ? floor[s] : 1; verdict = "ok"
      if (cases[s] + 0 < fl) { verdict = "BELOW FLOOR"; bad = 1 }
      if (failed[s] + 0 > 0) { verdict = verdict == "ok" ? "FAILED" : verdict ", FAILED"; bad = 1 }
      if (notrun[s] + 0 > 0) { verdict = verdict " (" notrun[s] " not run)"; bad = 1 }
      printf "%-10s %8d %10d %8d %8d  %s\n", s, entries[s], cases[s], fl, failed[s], verdict
    }
    exit bad
  }'
