#!/bin/sh
# Every preset in resources/scenarios/, rendered by two topocast-cli processes to PNG frames, an
# animated GIF and an MP4 at a small size, must give byte-identical files (exports are
# a function of the scenario and the options, never of timing). Run under one X server.
#   render_twice.sh TOPOCAST_CLI SCENARIO_DIR WORK_DIR
set -u
cli=$1 scenarios=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail=0 count=0
for scenario in "$scenarios"/*.json; do
  name=$(basename "$scenario" .json)
  for format in png gif mp4; do
    for run in a b; do
      case $format in png) out="$work/$name-$run/" ;; *) out="$work/$name-$run.$format" ;; esac
      "$cli" render --scenario "$scenario" --out "$out" --width 128 --height 96 --fps 10 \
        --frames-per-step 2 --hold-frames 1 >"$work/$name-$format-$run.log" 2>&1 &
    done
    wait
    for run in a b; do
      grep -q '^wrote ' "$work/$name-$format-$run.log" || {
        echo "FAIL $name $format: run $run did not render:"; cat "$work/$name-$format-$run.log"; fail=1; }
    done
    if [ $format = png ]; then
      diff -r "$work/$name-a" "$work/$name-b" >/dev/null || {
        echo "FAIL $name png: frames differ: $(cd "$work/$name-a" && for f in *; do cmp -s "$f" "../$name-b/$f" || printf '%s ' "$f"; done)"; fail=1; }
      [ "$(ls "$work/$name-a" | wc -l)" -ge 3 ] || { echo "FAIL $name png: fewer than 3 frames"; fail=1; }
    else
      cmp -s "$work/$name-a.$format" "$work/$name-b.$format" || { echo "FAIL $name $format: the two files differ"; fail=1; }
      if [ $format = mp4 ]; then  # captions: the WebVTT beside the MP4 is deterministic too
        cmp -s "$work/$name-a.vtt" "$work/$name-b.vtt" || { echo "FAIL $name vtt: the two caption files differ"; fail=1; }
        [ -s "$work/$name-a.vtt" ] || { echo "FAIL $name vtt: no caption file"; fail=1; }
      fi
      [ -s "$work/$name-a.$format" ] || { echo "FAIL $name $format: empty file"; fail=1; }
    fi
    count=$((count + 1))
  done
done
if [ $fail -ne 0 ]; then
  echo "render_twice: some exports differ between two runs"
  exit 1
fi
echo "render_twice: $count preset × format pairs byte-identical across two processes"
