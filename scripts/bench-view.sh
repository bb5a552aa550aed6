#!/usr/bin/env bash
# The 3-D view's cost per frame on software OpenGL: renders a binomial broadcast
# from (0,0,0) on meshes 4^3, 8^3, 16^3 and 32^3 at 1280x720 with `topocast-cli render --timings`
# under xvfb-run with Mesa's llvmpipe, the last step (3·log2(n): all nodes informed, N/2 messages
# in flight) two ways: at rest (30 frames of its final state) and playing (12 frames of its
# messages moving), for QT3D_RENDERER=opengl and rhi, interleaved (size, backend, state, size,
# ...) REPS times, and prints each case's median render+read-back time per frame and the
# 32^3/4^3 ratio per backend and state.
#
#   scripts/bench-view.sh [--cli PATH]... [--reps N] [--sizes "4 8 16 32"] [--backends "opengl rhi"]
#                         [--states "rest playing"]
#
# --cli (default build/cli/topocast-cli) may be given more than once, e.g. main's build and this
# one: the builds are interleaved too, and each gets its own table.
# Interleaving and medians keep a busy machine (other builds on the same cores) from favouring
# one case; the ratio compares numbers taken side by side in the same run.
set -euo pipefail

clis=()
reps=3
sizes="4 8 16 32"
backends="opengl rhi"
states="rest playing"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --cli) clis+=("$2"); shift 2 ;;
        --reps) reps="$2"; shift 2 ;;
        --sizes) sizes="$2"; shift 2 ;;
        --backends) backends="$2"; shift 2 ;;
        --states) states="$2"; shift 2 ;;
        -h|--help) sed -n 2,18p "$0"; exit 0 ;;
        *) echo "bench-view.sh: unknown option '$1' (allowed: --cli PATH, --reps N, --sizes LIST, --backends LIST, --states LIST)" >&2; exit 2 ;;
    esac
done
[[ ${#clis[@]} -gt 0 ]] || clis=("$(cd "$(dirname "$0")/.." && pwd)/build/cli/topocast-cli")
for cli in "${clis[@]}"; do
    [[ -x "$cli" ]] || { echo "bench-view.sh: no topocast-cli at $cli (build it, or pass --cli PATH)" >&2; exit 2; }
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { echo "bench-view.sh: --reps must be a positive integer, got '$reps'" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for n in $sizes; do
    printf '{"format":"topocast-scenario","version":1,"title":"mesh %s^3 binomial","topology":"mesh:%sx%sx%s","algorithm":"binomial","source":[0,0,0],"params":{}}\n' \
        "$n" "$n" "$n" "$n" > "$work/m$n.json"
done

# One render; prints its render+read-back ms per frame. rest: the last step's final state held
# 30 frames; playing: the last step's 12 frames of messages moving (no hold).
one() {
    local cli="$1" n="$2" backend="$3" state="$4" line last=0 k frames
    for ((k = n; k > 1; k /= 2)); do last=$((last + 3)); done  # binomial on n^3 = 2^(3 log2 n) nodes
    if [[ "$state" == playing ]]; then frames=(--hold-frames 0 -k 12); else frames=(--hold-frames 30 -k 1); fi
    line=$(QT3D_RENDERER="$backend" LIBGL_ALWAYS_SOFTWARE=1 xvfb-run -a -s "-screen 0 1600x1000x24" \
        "$cli" render --scenario "$work/m$n.json" -o "$work/o.mp4" --width 1280 --height 720 \
        --steps "$last" "${frames[@]}" --timings 2>/dev/null | grep 'time per frame')
    sed -E 's/.*render\+read-back ([0-9.]+) ms.*/\1/' <<< "$line"
}

for ((r = 1; r <= reps; ++r)); do
    for n in $sizes; do
        for b in $backends; do
            for st in $states; do
                for ((c = 0; c < ${#clis[@]}; ++c)); do
                    ms=$(one "${clis[c]}" "$n" "$b" "$st")
                    echo "$c $n $b-$st ${ms:-nan}" >> "$work/results"
                    echo "rep $r: ${clis[c]} ${n}^3 $b $st: ${ms:-failed} ms/frame" >&2
                done
            done
        done
    done
done

median() { grep -v nan | sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
cell() { awk -v c="$1" -v n="$2" -v b="$3" '$1 == c && $2 == n && $3 == b {print $4}' "$work/results" | median; }
first=${sizes%% *}
last=${sizes##* }
cases=()
for b in $backends; do for st in $states; do cases+=("$b-$st"); done; done
for ((c = 0; c < ${#clis[@]}; ++c)); do
    echo "${clis[c]}"
    printf '%-10s' "network"
    for x in "${cases[@]}"; do printf '%16s' "$x"; done
    echo "   (median ms per frame, render+read-back, 1280x720, $reps reps)"
    for n in $sizes; do
        printf '%-10s' "${n}^3"
        for x in "${cases[@]}"; do printf '%16s' "$(cell "$c" "$n" "$x")"; done
        echo
    done
    for x in "${cases[@]}"; do
        awk -v lo="$(cell "$c" "$first" "$x")" -v hi="$(cell "$c" "$last" "$x")" -v b="$x" -v f="$first" -v l="$last" \
            'BEGIN {printf "%s: %s^3/%s^3 = %.2f\n", b, l, f, hi / lo}'
    done
done
