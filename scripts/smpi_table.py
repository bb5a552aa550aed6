#!/usr/bin/env python3
"""The table of docs/mpi.md: topocast's schedules simulated by topocast (SimGrid flow model) and
replayed by topocast-mpi under SMPI, beside SMPI's own algorithms for the same collective, on the
same simulated tori. Prints a Markdown table; each cell in microseconds.

Usage: scripts/smpi_table.py BUILD_DIR [--tori=4x4x4,8x8x8] [--sizes=1KiB,64KiB,1MiB,16MiB]
                               [--replay-max-ranks=64] [--replay-max-bytes=1048576]
Needs a build with SimGrid (build/mpi/smpi/topocast-mpi, build/mpi/smpi/collective_time) and smpirun.

The network: links of 12.5 GB/s and 1 us (topocast-cli platform), SMPI's default network model on
them; topocast's simulation of the same links: --bandwidth 12.5GB/s --hop-latency 1us, no latency
once per message, no overheads or gaps (SMPI's own model adds those), a barrier between steps (as
topocast-mpi's replay times a schedule: step by step).
"""
import json
import os
import subprocess
import sys
import tempfile

build = sys.argv[1]
args = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
tori = args.get("--tori", "4x4x4,8x8x8").split(",")
sizes = args.get("--sizes", "1KiB,64KiB,1MiB,16MiB").split(",")
# topocast-mpi under SMPI keeps a copy of the program and the schedule per rank: 512 ranks hold
# 14 GB and take minutes a cell, and 16 MiB replays minutes more; past these, "–".
replay_ranks = int(args.get("--replay-max-ranks", "64"))
replay_bytes = int(args.get("--replay-max-bytes", str(1024 ** 2)))
cli = os.path.join(build, "cli", "topocast-cli")
replay = os.path.join(build, "mpi", "smpi", "topocast-mpi")
coll = os.path.join(build, "mpi", "smpi", "collective_time")
NET = ["--bandwidth", "12.5GB/s", "--latency", "0ns", "--hop-latency", "1us", "--overhead", "0ns", "--gap", "0ns"]
UNITS = {"KiB": 1024, "MiB": 1024 ** 2}


def size_bytes(text):
    for unit, factor in UNITS.items():
        if text.endswith(unit):
            return int(text[: -len(unit)]) * factor
    return int(text.rstrip("B"))


def run(cmd, timeout=900):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + r.stderr[-400:])
    return r.stdout


def simulated(torus, algorithm, pattern, size):
    doc = json.loads(run([cli, "simulate", "-t", "torus:" + torus, "-a", algorithm, "--pattern", pattern, "--message",
                          str(size) + "B", "--sync", "steps", "--json"] + NET))
    return doc["total"]["value"] / 1e3


def smpirun(work, torus, np, program, extra):
    return run(["smpirun", "-platform", os.path.join(work, torus + ".xml"), "-hostfile", os.path.join(work, torus + ".hosts"),
                "-np", str(np), "--log=root.thresh:critical", "--cfg=smpi/tmpdir:" + work] + extra + [program], timeout=1800)


def replayed(work, torus, np, algorithm, pattern, size):
    schedule = os.path.join(work, f"{algorithm}-{pattern}-{torus}.json")
    if not os.path.exists(schedule):
        run([cli, "schedule", "-t", "torus:" + torus, "-a", algorithm, "--pattern", pattern, "--out", schedule])
    block = json.loads(run([cli, "time", schedule, "--message", str(size) + "B", "--json"]))["block"]["value"]
    block = max(8, (block + 7) // 8 * 8)
    measured = os.path.join(work, "measured.json")
    cmd = ["smpirun", "-platform", os.path.join(work, torus + ".xml"), "-hostfile", os.path.join(work, torus + ".hosts"),
           "-np", str(np), "--log=root.thresh:critical", "--cfg=smpi/tmpdir:" + work, replay, schedule, "--bytes",
           str(block), "--repeat", "1", "--no-library", "--out", measured]
    run(cmd, timeout=1800)
    return json.load(open(measured))["total"]["median_s"] * 1e6


def smpi_own(work, torus, np, collective, algorithm, size):
    out = run(["smpirun", "-platform", os.path.join(work, torus + ".xml"), "-hostfile", os.path.join(work, torus + ".hosts"),
               "-np", str(np), "--log=root.thresh:critical", "--cfg=smpi/tmpdir:" + work,
               f"--cfg=smpi/{collective}:{algorithm}", coll, collective, str(size)], timeout=1800)
    return float(out.strip().split()[-2])


def cell(f, *a):
    try:
        return f"{f(*a):.1f}"
    except Exception as e:  # a run too large for this machine: said in the table, not hidden
        print(f"  ({e})", file=sys.stderr)
        return "–"


with tempfile.TemporaryDirectory() as work:
    for torus in tori:
        run([cli, "platform", "-t", "torus:" + torus, "--bandwidth", "12.5GB/s", "--hop-latency", "1us", "--out",
             os.path.join(work, torus + ".xml")])
    ours = {"allreduce": ["ring", "bucket", "rabenseifner", "recursive-doubling"], "broadcast": ["binomial"]}
    theirs = {"allreduce": ["lr", "rab_rdb", "rdb", "ompi"], "broadcast": ["binomial_tree", "flattree"]}
    for pattern, collective in (("allreduce", "allreduce"), ("broadcast", "bcast")):
        print(f"\n#### {pattern} (us)\n")
        head = ["torus", "size"] + [f"{a} sim / SMPI" for a in ours[pattern]] + [f"SMPI {a}" for a in theirs[pattern]]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for torus in tori:
            np = 1
            for side in torus.split("x"):
                np *= int(side)
            for text in sizes:
                size = size_bytes(text)
                print(f"{torus} {text}", file=sys.stderr)
                row = [torus, text]
                for a in ours[pattern]:
                    shown = "–"
                    if np <= replay_ranks and size <= replay_bytes:
                        shown = cell(replayed, work, torus, np, a, pattern, size)
                    row.append(cell(simulated, torus, a, pattern, size) + " / " + shown)
                for a in theirs[pattern]:
                    row.append(cell(smpi_own, work, torus, np, collective, a, size))
                print("| " + " | ".join(row) + " |", flush=True)
