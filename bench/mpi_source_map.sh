#!/usr/bin/env bash
# The map of every source on MPI ranks: the binomial TCD source map of a 3-D mesh (default 32³) on
# 1, 2 (and RANKS…) ranks of one thread each, wall-clock, the speed-up over one rank, and whether
# every run wrote the bytes topocast-cli writes. Then topocast-cli's estimate beside its measured
# time for 16³ and 32³. Numbers go into the notes (docs/mpi.md), never into tests.
#   bench/mpi_source_map.sh [BUILD_DIR]     (TOPOLOGY=mesh:32x32x32 RANKS="1 2" by default)
set -euo pipefail
build=${1:-build}
topology=${TOPOLOGY:-mesh:32x32x32}
ranks=${RANKS:-1 2}
cli="$build/cli/topocast-cli"
mpi="$build/mpi/topocast-mpi"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=()
if mpirun --version 2>&1 | grep -q "Open MPI"; then
    flags=(--oversubscribe --allow-run-as-root --mca btl self,vader)
fi
seconds() { local start=$1; echo "$(date +%s.%N) - $start" | bc; }

"$cli" source-map --topology "$topology" --algorithm binomial --metric tcd --json --max-seconds 0 \
    > "$work/cli.json" 2> /dev/null
echo "binomial tcd source map of $topology, one thread per rank ($(nproc) cores here)"
one=""
for np in $ranks; do
    start=$(date +%s.%N)
    mpirun "${flags[@]}" -np "$np" "$mpi" source-map --topology "$topology" --algorithm binomial --metric tcd \
        --threads 1 --json --out "$work/mpi.json" 2> "$work/err"
    t=$(seconds "$start")
    [ -z "$one" ] && one=$t
    same=$(cmp -s "$work/cli.json" "$work/mpi.json" && echo "same bytes as topocast-cli" || echo "DIFFERENT")
    printf '  %2d ranks: %7.2f s  speed-up %.2f  (%s)\n' "$np" "$t" "$(echo "$one / $t" | bc -l)" "$same"
    grep -m1 "sources on" "$work/err" | sed 's/^/    /'
done

echo "topocast-cli source-map: the estimate beside the measured time ($(nproc) threads)"
for t in mesh:16x16x16 mesh:32x32x32; do
    start=$(date +%s.%N)
    "$cli" source-map --topology "$t" --algorithm binomial --metric tcd --json --max-seconds 0 \
        > /dev/null 2> "$work/err"
    printf '  %-16s measured %6.2f s; %s\n' "$t" "$(seconds "$start")" "$(grep -m1 "sources," "$work/err")"
done
