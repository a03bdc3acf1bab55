//! Each command's long help (`clawdeck CMD --help`): what it is for, examples that run on the
//! embedded demo config, and its exit statuses.
//!
//! Example lines start with `  $ clawdeck`; tests/cli_help.rs runs every one on a fresh HOME
//! (the demo), with a stand-in `openclaw` and a local fake gateway in OPENCLAW_GATEWAY_URL. A
//! trailing `# ...` comment may say `exit N` (the status the example ends with, else 0) or
//! `runs until Ctrl-C`. Keep the exit statuses true to what src/cli returns.

/// Below `clawdeck --help`.
pub const TOP: &str = "\
Without a command, clawdeck opens the console (it needs a terminal).
`clawdeck COMMAND --help` shows a command's examples and exit statuses.

Exit status: the console ends with 0 when quit, 2 without a terminal or with a config it
cannot read; every command ends with 2 for a command line that cannot be parsed.";

pub const TOOLS: &str = "\
Examples:
  $ clawdeck tools
  $ clawdeck tools --agent ops --channel telegram
  $ clawdeck tools --agent support --json

Exit status:
  0  the list was printed
  2  bad usage: the config cannot be read, an unknown agent";

pub const EXPLAIN: &str = "\
Examples:
  $ clawdeck explain exec --agent support
  $ clawdeck explain bash --agent ops --json
  $ clawdeck explain --agent ops

Exit status:
  0  the explanation was printed
  2  bad usage: an unknown tool, the config cannot be read, an unknown agent";

pub const INVOKE: &str = "\
Examples:
  $ clawdeck invoke read -p '{\"path\": \"/etc/hosts\"}'
  $ clawdeck invoke read --json '{\"path\": \"/etc/hosts\"}'
  $ clawdeck invoke exec --agent support -p '{\"command\": \"ls\"}'   # refused there: exit 3

With --via gateway the tool runs on a live OpenClaw gateway (--gateway URL, clawdeck.json5
`gateways`, or OPENCLAW_GATEWAY_URL and OPENCLAW_GATEWAY_TOKEN), under its own policy.

Exit status:
  0  the tool succeeded
  1  the tool reported an error, its command exited non-zero, or the call was cancelled
     (Ctrl-C, SIGTERM or SIGHUP: its process trees are killed first)
  2  bad usage: unreadable or invalid --params, parameters that fail the schema, an unknown
     tool, the config cannot be read
  3  refused: the policy hides the tool in this context, or a hook blocked the call";

pub const ROUTE: &str = "\
Examples:
  $ clawdeck route -m \"summarise yesterday's alerts\"
  $ clawdeck route --agent ops --timeout 60 -m \"check the disk usage on the log host\"
  $ clawdeck route --json -m \"list the open incidents\"

The remote agent's stdout is written to stdout, its stderr to stderr; stdout ends with what the
tool returns to the model after the output (the seed's closing texts), and stderr says the same
in English.

Exit status:
  0  the remote run completed
  1  it failed, timed out, could not start, or was stopped (Ctrl-C, SIGTERM or SIGHUP kill its
     process tree)
  2  bad usage: an empty message, no agent and no default, the config cannot be read";

pub const SCHEMA: &str = "\
Examples:
  $ clawdeck schema
  $ clawdeck schema --api anthropic --agent ops
  $ clawdeck schema --provider google --json

stdout is the payload alone, ready for a request; notes go to stderr.

Exit status:
  0  the payload was printed and meets the API's constraints
  1  the payload breaks a constraint of the API (each violation is on stderr)
  2  bad usage: the config cannot be read, an unknown agent";

pub const PROMPT: &str = "\
Examples:
  $ clawdeck prompt
  $ clawdeck prompt --router --agent ops
  $ clawdeck prompt --subagent --json

Exit status:
  0  the prompt was printed
  2  bad usage: the config cannot be read, an unknown agent";

pub const DISPATCH: &str = "\
Examples:
  $ clawdeck dispatch \"/log_summary last 3 days\"
  $ clawdeck dispatch --agent ops --dry-run \"/db_expert optimize this query\"
  $ clawdeck dispatch --json --dry-run \"/db_expert optimize this query\"   # refused for main: exit 3

Without --dry-run a command that names a tool runs it through the pipeline, as `invoke` does
(and then ends with invoke's exit statuses).

Exit status:
  0  planned: a tool call, or the message goes to the model
  2  bad usage: not a /command, an unknown command, a command whose tool is unknown
  3  refused: the command's tool is hidden in this context";

pub const VERIFY: &str = "\
Examples:
  $ clawdeck verify --gateway http://127.0.0.1:18789 --session agent:ops:main   # the demo is not the gateway's config: exit 1
  $ clawdeck verify --gateway http://127.0.0.1:18789 --session agent:main:main --json   # exit 1

The session key decides the agent, channel, group and subagent compared (a context flag that
contradicts it is bad usage); the report names them. Without --gateway, verify runs the real
`openclaw agent --local` against a recording mock LLM (needs the OpenClaw CLI: --openclaw,
$OPENCLAW_BIN or `openclaw` on PATH). Compare with the config the gateway runs (--config):
with the embedded demo config, disagreements are expected (a warning says so).

Exit status:
  0  clawdeck and OpenClaw agree
  1  they disagree on at least one tool or schema (each disagreement is listed)
  2  bad usage, or OpenClaw could not be asked: no CLI, a context a run cannot express, the
     gateway's error";

pub const GATEWAY: &str = "\
Examples:
  $ clawdeck gateway status
  $ clawdeck gateway sessions --json

The gateways: --gateway URL (repeatable), else clawdeck.json5 `gateways`, else
OPENCLAW_GATEWAY_URL with OPENCLAW_GATEWAY_TOKEN.

Exit status: see each command's --help.";

pub const GATEWAY_STATUS: &str = "\
Examples:
  $ clawdeck gateway status
  $ clawdeck gateway status --json

Exit status:
  0  every gateway connected
  1  at least one did not (each is reported)
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_SESSIONS: &str = "\
Examples:
  $ clawdeck gateway sessions
  $ clawdeck gateway sessions --json

Exit status:
  0  every gateway answered
  1  a gateway could not be reached or did not answer (the others are still listed)
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_WATCH: &str = "\
Examples:
  $ clawdeck gateway watch   # runs until Ctrl-C
  $ clawdeck gateway watch --session agent:ops:main --json   # runs until Ctrl-C

One line per event: a tool call with its arguments and output, a message, an approval, a run's
progress, a chat reply; --json prints one JSON object per event instead (with the event's own
payload for the events clawdeck does not read field by field).

Exit status:
  0  stopped with Ctrl-C, or the reader of stdout left
  1  no gateway could be reached
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_EFFECTIVE: &str = "\
Examples:
  $ clawdeck gateway effective --session agent:main:main
  $ clawdeck gateway effective --session agent:ops:main --json

Exit status:
  0  every gateway answered
  1  a gateway could not be reached or did not answer
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_ABORT: &str = "\
Examples:
  $ clawdeck gateway abort agent:ops:main
  $ clawdeck gateway abort agent:ops:main --run clawdeck-chat-5f0c2d7a1b2c3d4e --json

Stops the session's active work with sessions.abort (scope operator.write; chat.abort on a
gateway that does not list sessions.abort); --run stops only that run. A session with nothing
running answers `no-active-run`.

Exit status:
  0  a gateway took the abort
  1  no gateway took it (each gateway's answer is on stderr), or none could be reached
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_STEER: &str = "\
Examples:
  $ clawdeck gateway steer agent:ops:main -m 'use the staging database instead'

Puts the message into the session's running turn: chat.send with queueMode steer (scope
operator.write); an idle session starts a new turn with it. Follow the turn with
`clawdeck gateway watch --session KEY`.

Exit status:
  0  a gateway took the message
  1  no gateway took it (a gateway without chat.send says it does not offer it), or none
     could be reached
  2  an empty message, no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_SEND: &str = "\
Examples:
  $ clawdeck gateway send agent:ops:main -m 'and check the backups too'

Sends the message into the session with sessions.send (scope operator.write), queued behind a
running turn as the session's queue mode says.

Exit status:
  0  a gateway took the message
  1  no gateway took it (a gateway without sessions.send says it does not offer it), or none
     could be reached
  2  an empty message, no gateway configured, or clawdeck's device identity cannot be read";

pub const CHAT: &str = "\
Examples:
  $ clawdeck chat --session agent:ops:main -m 'summarize the last deploy'
  $ clawdeck chat --session agent:ops:main -m 'check disk space' --json

The turn goes through the gateway's chat.send (scope operator.write) from clawdeck's device: the
reply streams on stdout with a line for each tool call; an exec the gateway asks about is shown
with its approval id, and `clawdeck approvals watch` / the console from the same state directory
see it too (answer it with `clawdeck approvals resolve ID allow-once`). --json prints one JSON
object per event (started, status, delta, tool, approval, approval-resolved, final, aborted,
error). Ctrl-C, SIGTERM or SIGHUP abort the turn on the gateway (sessions.abort, else
chat.abort) before clawdeck exits.

Exit status:
  0  the reply is complete
  1  the turn failed or was aborted, or the gateway could not be reached or refused the message
  2  bad usage: an empty session or message, no gateway configured or several (name one with
     --gateway), clawdeck's device identity cannot be read
  130, 143, 129  stopped by Ctrl-C, SIGTERM, SIGHUP (the turn was aborted first)";

pub const APPROVALS: &str = "\
Examples:
  $ clawdeck approvals watch   # runs until Ctrl-C
  $ clawdeck approvals pending
  $ clawdeck approvals resolve 5f0c2d7a allow-once
  $ clawdeck approvals history

Exit status: see each command's --help.";

pub const APPROVALS_WATCH: &str = "\
Examples:
  $ clawdeck approvals watch   # runs until Ctrl-C
  $ clawdeck approvals watch --json   # runs until Ctrl-C

Approvals already pending are printed first. Only turns started with the gateway's chat.send
raise approvals that reach clawdeck.

Exit status:
  0  stopped with Ctrl-C, or the reader of stdout left
  1  no gateway could be reached
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const APPROVALS_RESOLVE: &str = "\
Examples:
  $ clawdeck approvals resolve 5f0c2d7a allow-once
  $ clawdeck approvals resolve 5f0c2d7a deny --json

Exit status:
  0  a gateway took the answer
  1  no gateway took it (each gateway's answer is on stderr), or none could be reached
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const APPROVALS_PENDING: &str = "\
Examples:
  $ clawdeck approvals pending
  $ clawdeck approvals pending --json

Lists exec, plugin and system-agent (OpenClaw change) approvals, soonest to expire first, each
with every field it approves in full. A gateway lists only the approvals its routing shows
this device (see docs/gateways.md, Approvals).

Exit status:
  0  every gateway listed its pending approvals
  1  a gateway could not be reached or refused a list (on stderr)
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const APPROVALS_HISTORY: &str = "\
Examples:
  $ clawdeck approvals history
  $ clawdeck approvals history --kind exec --limit 10 --json

Terminal approvals (allowed, denied, expired, cancelled) the gateways keep for 30 days,
newest first, with their decision, reason and resolver.

Exit status:
  0  every gateway answered
  1  a gateway could not be reached or refused (on stderr)
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const APPROVALS_GRANTS: &str = "\
Examples:
  $ clawdeck approvals grants
  $ clawdeck approvals grants --json

Standing grants are what allow-always on an automation (cron) run's exec approval mints: the
automation, the exact command, the use count and the state (until revoked, expires in N days,
expired, revoked).

Exit status:
  0  every gateway answered
  1  a gateway could not be reached or refused (on stderr)
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const APPROVALS_REVOKE: &str = "\
Examples:
  $ clawdeck approvals revoke g-5f0c2d7a
  $ clawdeck approvals revoke g-5f0c2d7a --json

The automation's next run asks again. Revoking twice is not an error (already-revoked).

Exit status:
  0  a gateway revoked it (or had revoked it already)
  1  no gateway knows the grant (each answer on stderr), or none could be reached
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const CATALOG: &str = "\
Examples:
  $ clawdeck catalog sync

Exit status: see `clawdeck catalog sync --help`.";

pub const CATALOG_SYNC: &str = "\
Examples:
  $ clawdeck catalog sync
  $ clawdeck catalog sync --agent ops --json

The pack is stored in $XDG_DATA_HOME/clawdeck/packs/<version>.json (default
~/.local/share/clawdeck/packs) and answers for that OpenClaw version from then on.

Exit status:
  0  a pack was stored for every gateway
  1  a gateway could not be reached or its catalog could not be stored (each is reported)
  2  no gateway configured, no data directory, or clawdeck's device identity cannot be read";

pub const LINT: &str = "\
Examples:
  $ clawdeck lint   # the demo has findings: exit 1
  $ clawdeck lint --agent support --json   # exit 1

Exit status:
  0  no findings
  1  warnings or errors were found (each names the key to change)
  2  the config cannot be read, or an unknown agent";

pub const DIFF: &str = "\
Examples:
  $ clawdeck diff --vs-agent ops   # the lists differ: exit 1
  $ clawdeck diff --agent ops --vs sandboxed=true
  $ clawdeck diff --vs-openclaw-version seed --json   # exit 1

Exit status:
  0  both sides show the same tools
  1  they differ (each tool with the rule responsible)
  2  bad input: nothing to compare, a bad --vs, a config or version that cannot be read";

pub const MCP: &str = "\
Examples:
  $ clawdeck mcp --agent ops   # runs until Ctrl-C (or until the client closes stdin)
  $ clawdeck mcp --listen 127.0.0.1:0 --token my-secret   # runs until Ctrl-C

Over stdio (the default) an MCP client starts clawdeck as its child and speaks on its stdin and
stdout; with --listen it serves streamable HTTP at http://ADDR/mcp (loopback only) and prints
the address on stderr. Diagnostics always go to stderr.

Exit status:
  0  the client closed the session, or a stop signal (Ctrl-C, SIGTERM, SIGHUP) ended the server
  2  bad usage: the config cannot be read, an address that is not loopback, a port in use, a
     blank --lane";

pub const LOG: &str = "\
Examples:
  $ clawdeck log
  $ clawdeck log --tool exec --json
  $ clawdeck log --follow --client mcp   # runs until Ctrl-C

Exit status:
  0  the records were printed (none recorded, or none matching, is said on stderr); with
     --follow, the reader of stdout left (Ctrl-C ends it by the signal)
  2  there is no state directory to read";

pub const PATHS: &str = "\
Examples:
  $ clawdeck paths
  $ clawdeck paths --json
  $ clawdeck paths --config docs/examples/openclaw.json5

FROM says what placed each one there: a flag or variable (--config, $OPENCLAW_CONFIG_PATH,
$XDG_STATE_HOME, ...) or `default`; --json adds what each is for. Asking creates nothing and
reads no config.

Exit status:
  0  the list was printed (without HOME, a place that needs it says it cannot be placed)";

pub const COMPLETIONS: &str = "\
Examples:
  $ clawdeck completions bash
  $ clawdeck completions zsh
  $ clawdeck completions fish
  $ clawdeck completions powershell

To load them: `source <(clawdeck completions bash)` in ~/.bashrc; for zsh, write the script as
`_clawdeck` into a directory on $fpath; for fish, into ~/.config/fish/completions/clawdeck.fish
(docs/install.md).

Exit status:
  0  the script was printed
  2  bad usage: a shell clawdeck does not know";

pub const MAN: &str = "\
Examples:
  $ clawdeck man
  $ clawdeck man gateway status

`clawdeck man | man -l -` reads it; install it as man1/clawdeck.1 in a directory on MANPATH.

Exit status:
  0  the page was printed
  1  the page could not be rendered
  2  bad usage: no such command";

pub const GATEWAY_HISTORY: &str = "\
Examples:
  $ clawdeck gateway history agent:main:main
  $ clawdeck gateway history agent:main:main --json

The session's earlier transcript from chat.history (scope operator.read; its newest 200
messages): messages by role, tool calls with their arguments, output and outcome. Says how many
earlier messages were not loaded.

Exit status:
  0  every gateway answered
  1  a gateway could not be reached or refused (its error is on stderr)
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_HEALTH: &str = "\
Examples:
  $ clawdeck gateway health
  $ clawdeck gateway health --json

Each gateway's OpenClaw version, uptime, connected clients, health (health, status,
system-presence) and tokens and cost per session (sessions.usage); scope operator.read.

Exit status:
  0  every gateway answered
  1  a gateway could not be reached or refused (its error is on stderr)
  2  no gateway configured, or clawdeck's device identity cannot be read";

pub const GATEWAY_LOGS: &str = "\
Examples:
  $ clawdeck gateway logs
  $ clawdeck gateway logs --filter ready --json
  $ clawdeck gateway logs --follow            # runs until Ctrl-C

The gateway's own log (logs.tail, scope operator.read), one sanitized line each; --follow
polls for new lines with the gateway's cursor (--interval-ms, at least 100).

Exit status:
  0  every gateway answered (with --follow: stopped by Ctrl-C)
  1  a gateway could not be reached or refused (its error is on stderr)
  2  no gateway configured, or clawdeck's device identity cannot be read";
