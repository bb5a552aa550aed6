#!/usr/bin/env python3
"""Runs topocast-cli and validates its real JSON outputs against resources/schema/.

Usage: check_schemas.py TOPOCAST_CLI SOURCE_DIR
Needs python3-jsonschema (Debian 12; scripts/install-deps.sh installs it). Every schema in
resources/schema/ must be checked against at least one real output (the script fails otherwise),
so a new JSON output comes with its schema and a line here.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

cli, root = sys.argv[1], sys.argv[2]
schemas = os.path.join(root, "resources", "schema")
scenarios = os.path.join(root, "resources", "scenarios")
measured = os.path.join(root, "resources", "measured")
used = set()


def run(args, ok=(0,), parse=True):
    r = subprocess.run([cli] + args, capture_output=True, text=True)
    if r.returncode not in ok:
        sys.exit(f"topocast-cli {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return json.loads(r.stdout) if parse else None


def check(schema_name, doc, what):
    with open(os.path.join(schemas, schema_name)) as f:
        schema = json.load(f)
    try:
        jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    except jsonschema.ValidationError as e:
        sys.exit(f"{what}: does not match {schema_name}: {e.message} at {list(e.absolute_path)}")
    used.add(schema_name)
    print(f"ok: {what} matches {schema_name}")


def cli_json(schema_name, args):
    check(schema_name, run(args), "topocast-cli " + " ".join(args))


cli_json("topocast-compare.schema.json", ["compare", "-t", "hypercube:5", "--pattern", "scatter", "--message", "10",
                                          "--packet", "3", "--tau", "10", "--tc", "1", "--json"])
cli_json("topocast-compare.schema.json", ["compare", "-t", "hypercube:4", "--json"])
cli_json("topocast-compare-collectives.schema.json", ["compare", "-t", "hypercube:4", "--pattern", "allreduce", "--json"])
cli_json("topocast-compare-collectives.schema.json", ["compare", "-t", "torus:4x6", "--pattern", "allgather", "--json"])
cli_json("topocast-compare-collectives.schema.json", ["compare", "-t", "mesh:3x3", "--pattern", "reduce", "--json"])
cli_json("topocast-compare-collectives.schema.json", ["compare", "-t", "torus:4x4", "--pattern", "allreduce", "--size", "64KiB",
                                                     "--model", "simgrid", "--json"])
cli_json("topocast-simulation.schema.json", ["simulate", "-t", "torus:4x4", "-a", "rabenseifner", "--pattern", "allreduce",
                                             "--message", "1MiB", "--json"])
cli_json("topocast-simulation.schema.json", ["simulate", "-t", "mesh:4x4", "-a", "binomial", "--network", "loggopsim",
                                             "--routing", "store-and-forward", "--sync", "steps", "--json"])
with tempfile.TemporaryDirectory() as tmp:
    trace = os.path.join(tmp, "trace.json")
    run(["simulate", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--trace", trace], parse=False)
    with open(trace) as f:
        check("topocast-simulation-trace.schema.json", json.load(f), "simulate --trace")
cli_json("topocast-compare-torus.schema.json", ["compare-torus", "-t", "torus:7x7x7", "-s", "1,2,3", "--json"])
cli_json("topocast-sweep.schema.json", ["sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--sizes", "8B..1MiB", "--json"])
cli_json("topocast-sweep.schema.json", ["sweep", "-t", "mesh:4x4", "--pattern", "broadcast", "-s", "1,1", "--sizes", "1KiB,1MiB",
                                        "--network", "loggopsim", "--sync", "steps", "--json"])
cli_json("topocast-sweep.schema.json", ["sweep", "-t", "torus:4x4", "--pattern", "allreduce", "--sizes", "1KiB,1MiB",
                                        "--model", "simgrid", "--json"])
cli_json("topocast-time.schema.json", ["time", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--message", "1MiB",
                                       "--json"])
cli_json("topocast-time.schema.json", ["time", "-t", "hypercube:4", "-a", "sbt", "--network", "loggopsim", "--sync", "steps",
                                       "--json"])
cli_json("topocast-time.schema.json", ["time", os.path.join(root, "tests", "data", "goal", "c_fanout3x1000.goal"),
                                       "--network", "loggopsim", "--json"])
cli_json("topocast-time.schema.json", ["time", os.path.join(root, "tests", "data", "goal", "a_send1b.goal"),
                                       "--topology", "mesh:2", "--network", "loggopsim", "--json"])
cli_json("topocast-compare-torus.schema.json", ["compare-torus", "-t", "hypercube:4", "--json"])
for net, algo, metric in [("mesh:4x4", "binomial", "time"), ("hypercube:4", "sbt", "time"), ("mesh:8x8", "cang-wu", "tcd"),
                          ("torus:5x5", "bfs", "max_link_load")]:
    cli_json("topocast-landscape.schema.json", ["source-map", "-t", net, "-a", algo, "--metric", metric, "--json"])
for model in ["loggp", "simgrid"]:
    cli_json("topocast-landscape.schema.json", ["source-map", "-t", "torus:4x4", "-a", "binomial", "--metric", "time",
                                                "--model", model, "--message", "64KiB", "--json"])
for net in ["mesh:8x8", "torus:8x8", "hypercube:3"]:
    cli_json("topocast-tcd-map.schema.json", ["tcd-map", "-t", net, "--json"])
cli_json("topocast-grade.schema.json", ["grade", "-t", "mesh:4x4", "-a", "binomial", "--step", "2", "--nodes", "0,1;1,1",
                                        "--json"])
cli_json("topocast-grade.schema.json", ["grade", "-t", "hypercube:3", "-a", "sbt", "--step", "1", "--nodes", "1",
                                        "--json"])
cli_json("topocast-visibility.schema.json", ["visibility", "--scenario", os.path.join(scenarios, "cang-wu-4x4x4.json"),
                                             "--json"])
cli_json("topocast-buffers.schema.json", ["buffers", "-t", "hypercube:3", "-a", "sbnt", "--pattern", "allgather",
                                           "--step", "2", "--json"])
cli_json("topocast-buffers.schema.json", ["buffers", "--scenario", os.path.join(scenarios, "cang-wu-4x4x4.json"),
                                           "--step", "0", "--json"])
for net in ["mesh:2x2", "torus:3x3x3", "hypercube:3"]:
    cli_json("topocast-layout.schema.json", ["layout", "--topology", net, "--json"])
cli_json("topocast-bounds.schema.json", ["bounds", "--dims", "3", "--side", "49", "--json"])
cli_json("topocast-bounds.schema.json", ["bounds", "--dims", "2..3", "--side", "4,5", "--json"])
cli_json("topocast-divisible.schema.json", ["divisible", "--ports", "3", "--layers", "3", "--json"])
cli_json("topocast-divisible.schema.json", ["divisible", "--ports", "3", "--layers", "2", "-t", "mesh:7x7x7",
                                            "--source", "3,3,3", "--json"])
cli_json("topocast-algorithms.schema.json", ["algorithms", "--json"])
cli_json("topocast-algorithms.schema.json", ["algorithms", "-t", "torus:7x7x7", "--json"])
with tempfile.TemporaryDirectory() as d:
    for net, algo in [("torus:7x7x7", "divisible-load"), ("mesh:4x4", "cang-wu"), ("hypercube:3", "sbnt")]:
        j, c = os.path.join(d, "s.json"), os.path.join(d, "s.csv")
        run(["schedule", "-t", net, "-a", algo, "--out", j], parse=False)
        run(["export", "-t", net, "-a", algo, "--format", "csv", "--out", c], parse=False)
        check("topocast-schedule.schema.json", json.load(open(j)), f"schedule {algo} on {net}")
        check("topocast-validation.schema.json", run(["validate", j, "--json"]), f"validate {algo} JSON")
        check("topocast-validation.schema.json", run(["validate", c, "--json"]), f"validate {algo} CSV")
        # A standard CSV: Python's csv module, with its defaults, takes the header from the first
        # line and reads one row per transfer, the settings in the first.
        with open(c, newline="") as f:
            rows = list(csv.DictReader(f))
        doc = json.load(open(j))
        if len(rows) != len(doc["transfers"]) or rows[0]["topology"] != net or rows[0]["step"] != "1":
            sys.exit(f"export {algo} CSV: csv.DictReader reads {len(rows)} rows (topology "
                     f"{rows[0].get('topology')!r}), the schedule has {len(doc['transfers'])} transfers on {net}")
        print(f"ok: export {algo} CSV reads as {len(rows)} rows with Python's csv module")
with tempfile.TemporaryDirectory() as d:
    # MSCCL XML: a ring all-reduce written out, checked (valid), then broken (a receive never sent).
    x = os.path.join(d, "ring.xml")
    run(["export", "-t", "torus:4x4", "-a", "ring", "--pattern", "allreduce", "--format", "msccl-xml", "--out", x],
        parse=False)
    check("topocast-msccl-validation.schema.json", run(["validate", x, "--topology", "torus:4x4", "--json"]),
          "validate MSCCL XML")
    text = open(x).read()
    with open(x, "w") as f:
        f.write(text.replace('type="s"', 'type="nop"', 1))
    doc = run(["validate", x, "--topology", "torus:4x4", "--json"], ok=(1,))
    check("topocast-msccl-validation.schema.json", doc, "validate broken MSCCL XML")
    if doc["valid"] or not doc["findings"]:
        sys.exit("a broken MSCCL XML program was found valid")
with tempfile.TemporaryDirectory() as d:
    # GOAL: a Rabenseifner all-reduce written out, imported as a schedule of point-to-point
    # messages, checked and timed; the program checked alone, then broken (a receive never sent).
    g, s = os.path.join(d, "r.goal"), os.path.join(d, "r.json")
    run(["export", "-t", "torus:4x4", "-a", "rabenseifner", "--pattern", "allreduce", "--format", "goal", "--out", g],
        parse=False)
    run(["import", g, "--topology", "torus:4x4", "--out", s], parse=False)
    check("topocast-schedule.schema.json", json.load(open(s)), "GOAL imported as a schedule")
    check("topocast-validation.schema.json", run(["validate", s, "--json"]), "validate an imported GOAL schedule")
    check("topocast-validation.schema.json", run(["validate", g, "--topology", "torus:4x4", "--json"]),
          "validate GOAL on a network")
    check("topocast-time.schema.json", run(["time", s, "--network", "loggopsim", "--json"]), "time an imported GOAL schedule")
    check("topocast-goal-validation.schema.json", run(["validate", g, "--json"]), "validate GOAL alone")
    b = os.path.join(d, "broken.goal")
    with open(b, "w") as f:
        f.write("num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 77\n}\nrank 1 {\n}\n")
    doc = run(["validate", b, "--json"], ok=(1,))
    check("topocast-goal-validation.schema.json", doc, "validate a broken GOAL program")
    if doc["valid"] or "broken.goal:3" not in doc["findings"][0]:
        sys.exit("a GOAL program with a receive never sent was found valid, or its finding has no line")
with tempfile.TemporaryDirectory() as d:
    # The trace export: a broadcast, a sourceless all-to-all, a divisible-load scatter in load units.
    for net, algo, extra in [("mesh:4x4", "binomial", []), ("hypercube:3", "sbnt", ["--pattern", "alltoall", "--ports", "n"]),
                             ("mesh:7x7x7", "divisible-load", ["--source", "3,3,3"])]:
        t = os.path.join(d, "trace.json")
        run(["export", "-t", net, "-a", algo] + extra + ["--format", "trace", "--out", t], parse=False)
        check("topocast-trace.schema.json", json.load(open(t)), f"export {algo} on {net} as a trace")


def require_units(node, where):
    """Every quantity a schema declares ({"value", "unit"}) must require its unit."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict) and "value" in props and not {"value", "unit"} <= set(node.get("required", [])):
            sys.exit(f"{where}: a quantity whose unit is not required")
        for key, value in node.items():
            require_units(value, where + "/" + key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            require_units(value, f"{where}[{i}]")


for name in sorted(os.listdir(schemas)):
    if name.endswith(".schema.json"):
        require_units(json.load(open(os.path.join(schemas, name))), name)
print("ok: every quantity the schemas declare requires its unit")
for name in sorted(os.listdir(scenarios)):
    if name.endswith(".json"):
        check("topocast-scenario.schema.json", json.load(open(os.path.join(scenarios, name))), f"scenario {name}")
for name in sorted(os.listdir(measured)):
    if name.endswith(".measured.json"):
        check("topocast-measured.schema.json", json.load(open(os.path.join(measured, name))), f"measured {name}")

unchecked = sorted(set(n for n in os.listdir(schemas) if n.endswith(".schema.json")) - used)
if unchecked:
    sys.exit("schemas no real output was checked against: " + ", ".join(unchecked))
