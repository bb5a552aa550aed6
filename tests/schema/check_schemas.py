#!/usr/bin/env python3
"""Runs topocast-cli and validates its real JSON outputs against resources/schema/ (issue #31).

Usage: check_schemas.py TOPOCAST_CLI SOURCE_DIR
Needs python3-jsonschema (Debian 12; scripts/install-deps.sh installs it).
"""
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

cli, root = sys.argv[1], sys.argv[2]
schemas = os.path.join(root, "resources", "schema")


def run(args, ok=(0,)):
    r = subprocess.run([cli] + args, capture_output=True, text=True)
    if r.returncode not in ok:
        sys.exit(f"topocast-cli {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def check(schema_name, doc, what):
    with open(os.path.join(schemas, schema_name)) as f:
        schema = json.load(f)
    try:
        jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    except jsonschema.ValidationError as e:
        sys.exit(f"{what}: does not match {schema_name}: {e.message} at {list(e.absolute_path)}")
    print(f"ok: {what} matches {schema_name}")


check("topocast-compare.schema.json",
      run(["compare", "-t", "hypercube:5", "--pattern", "scatter", "--message", "10", "--packet", "3", "--tau", "10",
           "--tc", "1", "--json"]), "compare hypercube:5 scatter")
check("topocast-compare.schema.json", run(["compare", "-t", "hypercube:4", "--json"]), "compare hypercube:4 broadcast")
check("topocast-compare-torus.schema.json", run(["compare-torus", "-t", "torus:7x7x7", "-s", "1,2,3", "--json"]),
      "compare-torus torus:7x7x7")
check("topocast-compare-torus.schema.json", run(["compare-torus", "-t", "hypercube:4", "--json"]),
      "compare-torus hypercube:4")
with tempfile.TemporaryDirectory() as d:
    for net, algo in [("torus:7x7x7", "divisible-load"), ("mesh:4x4", "cang-wu"), ("hypercube:3", "sbnt")]:
        j, c = os.path.join(d, "s.json"), os.path.join(d, "s.csv")
        run(["schedule", "-t", net, "-a", algo, "--out", j])
        run(["export", "-t", net, "-a", algo, "--format", "csv", "--out", c])
        check("topocast-schedule.schema.json", json.load(open(j)), f"schedule {algo} on {net}")
        check("topocast-validation.schema.json", run(["validate", j, "--json"]), f"validate {algo} JSON")
        check("topocast-validation.schema.json", run(["validate", c, "--json"]), f"validate {algo} CSV")
