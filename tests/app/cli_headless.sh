#!/bin/sh
# topocast-cli loads no Qt library; its drawing commands (render, handout) are
# handed over to the app program with the same options and messages.
#   cli_headless.sh TOPOCAST_CLI
set -u
cli=$1
fail=0
qt=$(ldd "$cli" | grep -c Qt)
[ "$qt" = 0 ] || { echo "FAIL: ldd topocast-cli names $qt Qt libraries:"; ldd "$cli" | grep Qt; fail=1; }
help=$("$cli" render --help 2>&1)
echo "$help" | grep -q -- '--scenario' && echo "$help" | grep -q -- '--captions' ||
  { echo "FAIL: topocast-cli render --help does not list render's options:"; echo "$help"; fail=1; }
help=$("$cli" --memory-limit 512 handout --help 2>&1)
echo "$help" | grep -q -- '--size' || { echo "FAIL: topocast-cli --memory-limit 512 handout --help:"; echo "$help"; fail=1; }
help=$("$cli" quiz --help 2>&1)
echo "$help" | grep -q -- '--steps' || { echo "FAIL: topocast-cli quiz --help does not list quiz's options:"; echo "$help"; fail=1; }
"$cli" --help | grep -q 'render, handout, html, quiz: made by the app program' ||
  { echo "FAIL: topocast-cli --help does not say where render and handout are"; fail=1; }
out=$(TOPOCAST_APP=/nonexistent/topocast "$cli" render --scenario x.json --out x.mp4 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q 'render is not in this build' ||
  { echo "FAIL: without the app, render should exit 2 saying it is not in this build (rc $rc): $out"; fail=1; }
out=$("$cli" render --scenario /nonexistent.json --out x.mp4 2>&1); rc=$?
[ $rc = 2 ] && echo "$out" | grep -q '^topocast-cli: .*nonexistent.json' ||
  { echo "FAIL: render of a missing scenario should exit 2 naming it (rc $rc): $out"; fail=1; }
# sweep --plot FILE.png: the app program draws the PNG, without a display; without the app, the
# refusal says to give a FILE.svg.
tmp=$(mktemp -d)
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$cli" sweep -t torus:4x4 --pattern allreduce --sizes 8B..1KiB --plot "$tmp/s.png" 2>&1); rc=$?
[ $rc = 0 ] && [ -s "$tmp/s.png" ] && head -c 4 "$tmp/s.png" | grep -q PNG ||
  { echo "FAIL: sweep --plot s.png through the app (rc $rc): $out"; fail=1; }
out=$(TOPOCAST_APP=/nonexistent/topocast "$cli" sweep -t torus:4x4 --pattern allreduce --plot "$tmp/t.png" 2>&1); rc=$?
[ $rc != 0 ] && echo "$out" | grep -q 'FILE.svg' && [ ! -e "$tmp/t.png" ] ||
  { echo "FAIL: without the app, sweep --plot t.png should be refused asking for a FILE.svg (rc $rc): $out"; fail=1; }
rm -rf "$tmp"
# --version in both programs, the app's without a display.
app=$(dirname "$cli")/../app/topocast
out=$("$cli" --version 2>&1)
echo "$out" | grep -Eq '^topocast-cli [0-9]+\.[0-9]+\.[0-9]+$' || { echo "FAIL: topocast-cli --version: $out"; fail=1; }
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" --version 2>&1); rc=$?
[ $rc = 0 ] && echo "$out" | grep -Eq '^topocast [0-9]+\.[0-9]+\.[0-9]+$' ||
  { echo "FAIL: topocast --version without a display (rc $rc): $out"; fail=1; }
[ $fail = 0 ] && echo "cli_headless: topocast-cli loads no Qt; render and handout go through topocast"
exit $fail
