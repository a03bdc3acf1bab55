#!/usr/bin/env bash
# schema.sh OPENCLAW_BIN VERSION -> assets/openclaw/schema/VERSION.json
#
# OpenClaw's own config schema, as `openclaw config schema` prints it (the JSON Schema export of
# its zod config schema with the bundled channel plugins' schemas merged in), stored without the
# annotation keywords (`title`, `description`, `examples`) that validation never reads. clawdeck
# validates configs against it (crates/clawdeck-core/src/config/schema_check.rs).
#
#   assets/openclaw/capture/schema.sh /root/.cache/realclaw/bin/openclaw 2026.9
#   assets/openclaw/capture/schema.sh /root/.cache/realclaw-2026.8/bin/openclaw 2026.8
set -euo pipefail
BIN=$1; VERSION=$2
HERE=$(cd "$(dirname "$0")" && pwd)
OUT="$HERE/../schema/$VERSION.json"
HOME_DIR=$(mktemp -d)
trap 'rm -rf "$HOME_DIR"' EXIT
RELEASE=$(REALCLAW_HOME="$HOME_DIR" "$BIN" --version | head -n1)
REALCLAW_HOME="$HOME_DIR" "$BIN" config schema > "$HOME_DIR/schema.json"
python3 - "$HOME_DIR/schema.json" "$OUT" "$RELEASE" <<'PY'
import json, sys

ANNOTATIONS = {"title", "description", "examples"}
# Keywords whose value maps names to schemas: the names are data, never annotations.
NAME_MAPS = {"properties", "patternProperties", "definitions", "$defs"}

def strip(node):
    if isinstance(node, list):
        return [strip(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ANNOTATIONS:
            continue
        if key in NAME_MAPS and isinstance(value, dict):
            out[key] = {name: strip(sub) for name, sub in value.items()}
        else:
            out[key] = strip(value)
    return out

src, dst, release = sys.argv[1:4]
with open(src) as f:
    schema = json.load(f)
stored = {"$comment": f"openclaw config schema from {release}; annotations stripped by assets/openclaw/capture/schema.sh"}
stored.update(strip(schema))
with open(dst, "w") as f:
    json.dump(stored, f, separators=(",", ":"), sort_keys=True)
    f.write("\n")
PY
echo "wrote $OUT ($RELEASE)"
