#!/bin/sh
# topocast-mpi under SimGrid's SMPI: a platform written by topocast-cli platform, a ring
# all-reduce replayed on it with its byte check, and SMPI's own MPI_Allreduce (recursive doubling)
# timed on the same simulated machine.
#   smpi_test.sh TOPOCAST_CLI TOPOCAST_MPI_SMPI COLLECTIVE_TIME_SMPI WORKDIR
set -u
cli=$1 replay=$2 coll=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
"$cli" platform -t torus:3x3 --bandwidth 12.5GB/s --hop-latency 1us --out "$work/t.xml" > /dev/null ||
  { echo "FAIL: topocast-cli platform"; exit 1; }
"$cli" schedule -t torus:3x3 -a ring --pattern allreduce --out "$work/ring.json" > /dev/null ||
  { echo "FAIL: topocast-cli schedule"; exit 1; }
out=$(smpirun -platform "$work/t.xml" -hostfile "$work/t.hosts" -np 9 --log=root.thresh:warning \
      --cfg=smpi/tmpdir:"$work" "$replay" "$work/ring.json" --bytes 1024 --repeat 1 --out "$work/measured.json" 2>&1)
rc=$?
echo "$out"
[ $rc = 0 ] || { echo "FAIL: smpirun topocast-mpi exited $rc"; fail=1; }
echo "$out" | grep -q "verified: every receive and every rank's final blocks match byte for byte" ||
  { echo "FAIL: the replay under SMPI did not verify every byte"; fail=1; }
grep -q '"ranks": 9' "$work/measured.json" || { echo "FAIL: measured.json does not record 9 ranks"; fail=1; }
out=$(smpirun -platform "$work/t.xml" -hostfile "$work/t.hosts" -np 9 --log=root.thresh:warning \
      --cfg=smpi/tmpdir:"$work" --cfg=smpi/allreduce:rdb "$coll" allreduce 4096 1048576 2>&1)
rc=$?
echo "$out"
[ $rc = 0 ] || { echo "FAIL: smpirun collective_time exited $rc"; fail=1; }
# SMPI's simulation is deterministic: the same platform gives the same times.
again=$(smpirun -platform "$work/t.xml" -hostfile "$work/t.hosts" -np 9 --log=root.thresh:warning \
        --cfg=smpi/tmpdir:"$work" --cfg=smpi/allreduce:rdb "$coll" allreduce 4096 1048576 2>&1)
[ "$out" = "$again" ] || { echo "FAIL: two runs of one simulation differ:"; echo "$again"; fail=1; }
small=$(echo "$out" | sed -n 's/^allreduce 4096 B \([0-9.]*\) us$/\1/p')
large=$(echo "$out" | sed -n 's/^allreduce 1048576 B \([0-9.]*\) us$/\1/p')
[ -n "$small" ] && [ -n "$large" ] || { echo "FAIL: collective_time printed no times"; fail=1; }
# 1 MiB takes at least its bytes over one 12.5 GB/s link (83.9 us), and more than 4 KiB does.
awk -v s="$small" -v l="$large" 'BEGIN { exit !(l >= 83.8 && l > s && s > 0) }' ||
  { echo "FAIL: times out of physics: 4 KiB $small us, 1 MiB $large us"; fail=1; }
[ $fail = 0 ] && echo "ok"
exit $fail
