#!/usr/bin/env python3
"""topocast's all-reduce schedules raced against the MPI library's MPI_Allreduce on real ranks.

Usage: bench/mpi_allreduce_race.py BUILD_DIR [--np=2,4] [--sizes=64KiB,256KiB,1MiB,4MiB,16MiB]
                                   [--algorithms=ring,bucket,rabenseifner] [--repeat=20] [--mpirun=ARGS]

For every rank count, size and algorithm, one topocast-mpi job replays the schedule (on
hypercube:1 for 2 ranks, hypercube:2 for 4, so all three algorithms run on the same ranks) twice:
--async (no barriers) and stepped (a barrier before each step), each with MPI_Allreduce timed in
the same job on the same data, every run byte-verified. Prints one Markdown table: the medians of
the end-to-end times (slowest rank, from a barrier to the last receive combined; the library from
a barrier to its return) over --repeat repetitions after a warm-up, in microseconds, and the async
time over the library's. Size = bytes per rank (the all-reduce's vector).

The runs are side by side in one invocation, as the machine is shared and noisy. Where the
machine has fewer cores than ranks, mpirun is given --oversubscribe and the table says so.
"""
import json
import os
import subprocess
import sys
import tempfile

build = sys.argv[1]
args = dict(a.split("=", 1) for a in sys.argv[2:] if "=" in a)
nps = [int(x) for x in args.get("--np", "2,4").split(",")]
sizes = args.get("--sizes", "64KiB,256KiB,1MiB,4MiB,16MiB").split(",")
algorithms = args.get("--algorithms", "ring,bucket,rabenseifner").split(",")
repeat = int(args.get("--repeat", "20"))
extra = args.get("--mpirun", "").split()
cli = os.path.join(build, "cli", "topocast-cli")
mpi = os.path.join(build, "mpi", "topocast-mpi")
UNITS = {"KiB": 1024, "MiB": 1024 ** 2}
TOPOLOGY = {2: "hypercube:1", 4: "hypercube:2", 8: "hypercube:3", 16: "hypercube:4"}


def size_bytes(text):
    for unit, factor in UNITS.items():
        if text.endswith(unit):
            return int(text[: -len(unit)]) * factor
    return int(text.rstrip("B"))


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(" ".join(cmd) + f"\nexit {r.returncode}\n{r.stdout}{r.stderr}")
    return r.stdout


def replay(work, schedule, np, per_block, mode):
    out = os.path.join(work, f"m{np}-{per_block}-{mode}.json")
    cmd = ["mpirun", "--allow-run-as-root", "--mca", "btl", "self,vader", "-np", str(np)]
    if np > (os.cpu_count() or 1):
        cmd.append("--oversubscribe")
    cmd += extra + [mpi, schedule, "--bytes", str(per_block), "--repeat", str(repeat), "--out", out]
    if mode == "async":
        cmd.append("--async")
    run(cmd)
    doc = json.load(open(out))
    if not doc["run"]["verified"]:
        sys.exit(f"{schedule}: not verified")
    return doc["end_to_end"]["median_s"] * 1e6, doc["library"]["median_s"] * 1e6


def main():
    cores = os.cpu_count() or 1
    print(f"all-reduce, end-to-end medians of {repeat} repetitions (us, slowest rank); {cores} cores"
          f"{'; ranks > cores run oversubscribed' if max(nps) > cores else ''}\n")
    head = "| ranks | size |" + "".join(f" {a} async / stepped |" for a in algorithms)
    head += " MPI_Allreduce | ring async / library |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    with tempfile.TemporaryDirectory() as work:
        for np in nps:
            schedules = {}
            for a in algorithms:
                schedules[a] = os.path.join(work, f"{a}-{np}.json")
                run([cli, "schedule", "-t", TOPOLOGY[np], "-a", a, "--pattern", "allreduce", "--out", schedules[a]])
            for size in sizes:
                per_rank = size_bytes(size)
                row, library = [], []
                for a in algorithms:
                    parts = json.load(open(schedules[a]))["parts"]
                    per_block = per_rank // parts
                    t_async, lib_a = replay(work, schedules[a], np, per_block, "async")
                    t_stepped, lib_s = replay(work, schedules[a], np, per_block, "stepped")
                    library += [lib_a, lib_s]
                    row.append((a, t_async, t_stepped))
                library.sort()
                lib = library[len(library) // 2]
                cells = "".join(f" {t:.1f} / {s:.1f} |" for _, t, s in row)
                ring = next((t for a, t, _ in row if a == "ring"), None)
                ratio = f" {ring / lib:.2f} |" if ring else " – |"
                print(f"| {np}{' (oversubscribed)' if np > cores else ''} | {size} |{cells} {lib:.1f} |{ratio}",
                      flush=True)
    print("\nMPI_Allreduce: the median of its medians over the jobs of the row (each job times it too).")


main()
