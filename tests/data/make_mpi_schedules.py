#!/usr/bin/env python3
"""Writes the hand-made hypercube schedules that the topocast-mpi tests replay (tests/data/mpi/).

They stand in for the paper's personalized algorithms until those are in the registry, and they
cover the patterns no baseline produces: scatter, alltoall and allgather with block payloads.
Every file is checked by `topocast-cli validate` in ctest. Run from anywhere:
    python3 tests/data/make_mpi_schedules.py
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpi")


class Doc:
    def __init__(self, n, algorithm, pattern, ports, source=0, note=""):
        self.n = n
        self.doc = {
            "format": "topocast-schedule",
            "version": 1,
            "topology": f"hypercube:{n}",
            "algorithm": algorithm,
            "source": source,
            "pattern": pattern,
            "port_model": ports,
            "note": note,
        }
        # payload 0 is always the source's broadcast message
        self.payloads = [[[source, -1, 0]]]
        self.index = {}
        self.transfers = []

    def payload(self, blocks):
        key = tuple(tuple(b) for b in sorted(blocks))
        if key not in self.index:
            self.index[key] = len(self.payloads)
            self.payloads.append([list(b) for b in key])
        return self.index[key]

    def send(self, step, frm, to, blocks):
        self.transfers.append({"step": step, "from": frm, "to": to, "payload": self.payload(blocks)})

    def write(self, name):
        self.transfers.sort(key=lambda t: t["step"])
        self.doc["payloads"] = self.payloads
        self.doc["transfers"] = self.transfers
        dump(self.doc, name)


def dump(doc, path):
    """One line per header key, payload and transfer: diff-friendly and readable."""
    lines = []
    for key, value in doc.items():
        if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
            items = ",\n    ".join(json.dumps(v, separators=(",", ":")) for v in value)
            lines.append(f'  "{key}": [\n    {items}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, path), "w") as f:
        f.write("{\n" + ",\n".join(lines) + "\n}\n")


def highest_bit(i):
    return i.bit_length() - 1


def sbt_scatter(n):
    """All-port SBT scatter from node 0: node i's children are i | 2^j for j > highest bit of i;
    a child's subtree receives its blocks in one message; level k goes out in step k."""
    d = Doc(n, "sbt-handmade", "scatter", "all-port",
            note="spanning binomial tree scatter from 0, all-port, written by tests/data/make_mpi_schedules.py")
    N = 1 << n

    def subtree(c):
        hb = highest_bit(c)
        return [v for v in range(N) if v & ((1 << (hb + 1)) - 1) == c]

    for i in range(N):
        level = bin(i).count("1")
        lo = highest_bit(i) + 1 if i else 0
        for j in range(lo, n):
            c = i | (1 << j)
            d.send(level + 1, i, c, [[0, v, 0] for v in subtree(c)])
    d.write(f"hypercube{n}_sbt_scatter.json")


def direct_alltoall(n):
    """Pairwise exchange: in step k = 1..N-1 node i sends its block for i^k to i^k (e-cube route)."""
    d = Doc(n, "pairwise-xor-handmade", "alltoall", "one-port-exchange",
            note="direct pairwise-exchange all-to-all, step k pairs i with i xor k")
    N = 1 << n
    for k in range(1, N):
        for i in range(N):
            d.send(k, i, i ^ k, [[i, i ^ k, 0]])
    d.write(f"hypercube{n}_direct_alltoall.json")


def dimension_alltoall(n):
    """Store-and-forward exchange by dimensions: in step j+1 node i gives its neighbour across
    dimension j every block it holds whose destination lies on the neighbour's side."""
    d = Doc(n, "dimension-exchange-handmade", "alltoall", "one-port-exchange",
            note="all-to-all by dimension exchange (n steps, N/2 blocks per message)")
    N = 1 << n
    held = {i: {(i, v) for v in range(N) if v != i} for i in range(N)}
    for j in range(n):
        moves = []
        for i in range(N):
            p = i ^ (1 << j)
            blocks = sorted(b for b in held[i] if (b[1] >> j) & 1 != (i >> j) & 1)
            moves.append((i, p, blocks))
            d.send(j + 1, i, p, [[o, v, 0] for (o, v) in blocks])
        for i, p, blocks in moves:
            held[i] -= set(blocks)
            held[p] |= set(blocks)
    d.write(f"hypercube{n}_dimension_alltoall.json")


def dimension_allgather(n):
    """Recursive-doubling allgather: in step j+1 node i sends everything it holds across dim j."""
    d = Doc(n, "recursive-doubling-handmade", "allgather", "one-port-exchange",
            note="allgather by recursive doubling (n steps, message doubles each step)")
    N = 1 << n
    held = {i: {i} for i in range(N)}
    for j in range(n):
        snapshot = {i: sorted(held[i]) for i in range(N)}
        for i in range(N):
            d.send(j + 1, i, i ^ (1 << j), [[o, -1, 0] for o in snapshot[i]])
        for i in range(N):
            held[i] |= set(snapshot[i ^ (1 << j)])
    d.write(f"hypercube{n}_allgather.json")


def corrupted_broadcast():
    """A 2x4 mesh broadcast in which (1,0) sends in step 1 but only receives in step 2."""
    doc = {
        "format": "topocast-schedule",
        "version": 1,
        "topology": "mesh:2x4",
        "algorithm": "corrupted-handmade",
        "source": [0, 0],
        "pattern": "broadcast",
        "port_model": "one-port",
        "note": "(1,0) forwards the message in step 1 before it receives it in step 2: must be refused",
        "transfers": [
            {"step": 1, "from": [1, 0], "to": [1, 1]},
            {"step": 2, "from": [0, 0], "to": [1, 0]},
            {"step": 2, "from": [1, 1], "to": [1, 2]},
            {"step": 3, "from": [0, 0], "to": [0, 1]},
            {"step": 3, "from": [1, 2], "to": [1, 3]},
            {"step": 4, "from": [0, 1], "to": [0, 2]},
            {"step": 5, "from": [0, 2], "to": [0, 3]},
        ],
    }
    dump(doc, "mesh2x4_corrupted_broadcast.json")


if __name__ == "__main__":
    for n in (3, 4):
        sbt_scatter(n)
        dimension_alltoall(n)
    direct_alltoall(3)
    dimension_allgather(3)
    corrupted_broadcast()
