#!/usr/bin/env python3
"""update_facts.py --from WORK/pack.json [--keys KEY[,KEY...]] [--tools NAME[,NAME...]] SHIPPED_PACK

Copies the named top-level facts (a dotted KEY names one inside a top-level object:
`toolSearch.directOnlyTools`), and the named tools' description, parameters and Tooling summary, of a fresh capture (capture.sh's WORK/pack.json) into a shipped
pack, leaving every other field as it is: how a fact the capture learned to read (e.g. `exec`,
exec's safe lists from dist/) reaches a pack without re-capturing the rest. A key the shipped
pack lacks is placed after `gatewayHttpDeny`. tests/pack_capture_real.rs then re-checks it
against the release in CI, as every captured fact.
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("--from", dest="source", required=True)
ap.add_argument("--keys", default="")
ap.add_argument("--tools", default="")
ap.add_argument("pack")
a = ap.parse_args()

captured = json.load(open(a.source, encoding="utf-8"))
with open(a.pack, encoding="utf-8") as f:
    shipped = json.load(f)
keys = [k for k in a.keys.split(",") if k]
inner = [k for k in keys if "." in k]
keys = [k for k in keys if "." not in k]
for key in keys:
    if key not in captured:
        raise SystemExit(f"{a.source} has no {key!r}")
for key in inner:
    top, rest = key.split(".", 1)
    if rest not in captured.get(top, {}) or not isinstance(shipped.get(top), dict):
        raise SystemExit(f"{key!r} is not in both packs' {top!r}")
    shipped[top][rest] = captured[top][rest]
captured_tools = {t["name"]: t for t in captured["tools"]}
for name in [n for n in a.tools.split(",") if n]:
    tool = next((t for t in shipped["tools"] if t["name"] == name), None)
    if tool is None or name not in captured_tools:
        raise SystemExit(f"{name!r} is not a tool of both packs")
    for field in ("description", "parameters", "promptSummary"):
        if field in captured_tools[name]:
            tool[field] = captured_tools[name][field]

out = {}
for k, v in shipped.items():
    out[k] = captured[k] if k in keys else v
    if k == "gatewayHttpDeny":
        for key in keys:
            if key not in shipped:
                out[key] = captured[key]
for key in keys:
    out.setdefault(key, captured[key])

with open(a.pack, "w", encoding="utf-8") as f:
    f.write(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
print(f"{a.pack}: {', '.join(keys + inner + [f'tools.{n}' for n in a.tools.split(',') if n])} from {a.source}")
