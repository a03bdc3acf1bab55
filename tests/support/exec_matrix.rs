//! The exec verdict matrix (tests/exec_verdict_real.rs): agents with their own exec settings,
//! the host approvals document, and (agent, command, surface) cases, each a real turn there.
//! What the real turns did is recorded (tests/recordings/exec_verdicts/<version>/, made by
//! tests/recordings/record.sh from a real run); tests/exec_verdicts_recorded.rs checks clawdeck's
//! `explain exec` against every recording without OpenClaw, on the matrix's config as written
//! here.

// A matrix that cannot be written or asked is the test's failure, said by the expect message.
#![allow(clippy::expect_used)]

use serde_json::{Value, json};

use super::recordings::inputs_hash;

/// The recordings' suite name (tests/recordings/exec_verdicts/<version>/).
pub const SUITE: &str = "exec_verdicts";

/// The agents and their own `tools` (JSON5); every agent inherits `GLOBAL_EXEC`.
pub const AGENTS: &[(&str, &str)] = &[
    ("main", "{}"),
    ("full", r#"{ exec: { security: "full" } }"#),
    ("asker", r#"{ exec: { ask: "on-miss" } }"#),
    ("always", r#"{ exec: { security: "full", ask: "always" } }"#),
    ("denier", r#"{ exec: { security: "deny" } }"#),
    ("safe", r#"{ exec: { safeBins: ["wc"] } }"#),
    ("hidden", r#"{ deny: ["exec"] }"#),
    ("fallback", r#"{ exec: { ask: "always" } }"#),
    ("docdeny", r#"{ exec: { security: "full" } }"#),
    ("bare", "{}"),
    ("modeask", r#"{ exec: { mode: "ask" } }"#),
    ("globber", r#"{ exec: { ask: "on-miss" } }"#),
    ("globoff", "{}"),
    (
        "strict",
        r#"{ exec: { security: "full", strictInlineEval: true } }"#,
    ),
    ("fwd", r#"{ exec: { ask: "always" } }"#),
    (
        "quiet",
        r#"{ exec: { security: "full", strictInlineEval: true }, elevated: { enabled: false } }"#,
    ),
];

/// `approvals.exec` forwards agent fwd's questions to a chat target: its headless turns wait.
pub const FORWARDING: &str = r#"approvals: { exec: { enabled: true, mode: "targets", agentFilter: ["fwd"], targets: [{ channel: "telegram", to: "123456789" }] } },"#;

/// The operator's chat turns (channel webchat) may use elevated mode: its default level is
/// then `on`.
pub const GLOBAL_EXEC: &str = r#"exec: { host: "gateway", security: "allowlist", ask: "off" }, elevated: { allowFrom: { webchat: ["*"] } }"#;

/// The host approvals document, as `openclaw approvals set --file` takes it.
pub const APPROVALS: &str = r#"{ version: 1, agents: {
  "*": { allowlist: [{ pattern: "/usr/bin/uname" }] },
  main: { allowlist: [{ pattern: "/usr/bin/ls" }, { pattern: "/usr/bin/git" }, { pattern: "/usr/local/bin/git" }] },
  asker: { allowlist: [{ pattern: "/usr/bin/ls" }] },
  fallback: { askFallback: "full", allowlist: [{ pattern: "/usr/bin/ls" }] },
  docdeny: { security: "deny" },
  bare: { allowlist: ["ls"] },
  modeask: { allowlist: [{ pattern: "/usr/bin/ls" }] },
  safe: { allowlist: [{ pattern: "/usr/bin/ls" }] },
  globber: { askFallback: "full", allowlist: [{ pattern: "/usr/bin/ls" }] },
  globoff: { allowlist: [{ pattern: "/usr/bin/ls" }, { pattern: "/usr/bin/whoami" }] },
  strict: { askFallback: "full" },
} }"#;

/// Who starts a turn, as `explain exec --surface` takes it.
pub use clawdeck_core::exec_verdict::Surface;

use Surface::{Headless as H, Interactive as I, Local as L};

/// (agent, command, surfaces).
pub const CASES: &[(&str, &str, &[Surface])] = &[
    ("main", "ls /", &[I, H, L]),
    ("main", "ls / && uname -s", &[I]),
    ("main", "cd / && ls", &[I]),
    ("main", "export A=1 && ls /", &[I]),
    ("main", "echo $(uname)", &[I]),
    ("main", "ls / | head -2", &[I]),
    ("main", "ls / | wc -l", &[I, H]),
    ("main", "whoami", &[I, H, L]),
    ("main", "/usr/bin/ls /", &[I]),
    ("main", "git --version", &[H]),
    ("main", "ls /; whoami", &[I]),
    ("full", "whoami", &[I, H]),
    ("full", "echo $(uname)", &[I]),
    ("asker", "ls /", &[I, H]),
    ("asker", "whoami", &[I, H, L]),
    ("asker", "cd / && ls", &[I]),
    ("asker", "export A=1 && ls /", &[I]),
    ("asker", "ls /; whoami", &[I]),
    ("always", "ls /", &[I, H]),
    ("always", "cd / && ls", &[I]),
    ("always", "true", &[I]),
    ("denier", "ls /", &[I, H]),
    ("safe", "ls / | wc -l", &[I]),
    ("safe", "ls / | head", &[I]),
    ("hidden", "ls /", &[I, H]),
    ("fallback", "ls /", &[I, H]),
    ("fallback", "whoami", &[H]),
    ("docdeny", "ls /", &[I, H]),
    ("bare", "ls /", &[I]),
    ("bare", "/usr/bin/ls /", &[I]),
    ("modeask", "whoami", &[I, H]),
    ("modeask", "ls /", &[H]),
    // Allowlisted, but the gateway cannot pin the line (a glob, an `sh -c` payload): a
    // question even with ask=off, and askFallback never answers it.
    ("globber", "ls /e*", &[I, H]),
    ("globoff", "ls /e*", &[I]),
    ("globoff", "sh -c 'whoami'", &[I, H]),
    ("globoff", "ls /", &[I]),
    // strictInlineEval: an inline program asks even with security=full.
    ("strict", "awk 'BEGIN { print 1 }'", &[I, H]),
    ("strict", "ls /", &[I]),
];

/// (agent, command) run as an automation's agent turn (`openclaw cron add` + `cron run`).
pub const CRON_CASES: &[(&str, &str)] = &[
    ("main", "ls /"),
    ("main", "whoami"),
    ("asker", "whoami"),
    ("fallback", "whoami"),
    ("strict", INLINE),
];

/// How a turn differs from a plain one: a session field patched first (`sessions.patch`), and
/// a `/exec` directive at the head of the message (that run only).
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub setting: Option<(&'static str, &'static str)>,
    pub directive: &'static str,
}

pub const fn patched(field: &'static str, value: &'static str) -> Turn {
    Turn {
        setting: Some((field, value)),
        directive: "",
    }
}

pub const fn directed(directive: &'static str) -> Turn {
    Turn {
        setting: None,
        directive,
    }
}

impl Turn {
    /// The `explain exec` flags that say the same.
    pub fn flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        if let Some((field, value)) = self.setting {
            flags.extend([session_flag(field).to_string(), value.to_string()]);
        }
        for pair in self.directive.split_whitespace().skip(1) {
            let (key, value) = pair.split_once('=').expect("key=value");
            flags.extend([format!("--exec-{key}"), value.to_string()]);
        }
        flags
    }

    pub fn label(&self) -> String {
        let setting = self
            .setting
            .map(|(f, v)| format!("{f} {v} "))
            .unwrap_or_default();
        format!("{setting}{}", self.directive)
    }
}

/// (agent, command, turn), each an interactive turn. A permission mode replaces the agent's
/// exec policy (the approvals document still tightens it, except under `full`, which also
/// skips approvals); an elevated level `full` skips approvals over a policy that asks for
/// nothing; a turn's `/exec` replaces the configured security or ask, and only tightens a
/// permission mode.
pub const SESSION_CASES: &[(&str, &str, Turn)] = &[
    ("full", "whoami", patched("permissionMode", "read-only")),
    ("main", "whoami", patched("permissionMode", "guarded")),
    ("main", "ls /", patched("permissionMode", "workspace")),
    ("docdeny", "ls /", patched("permissionMode", "guarded")),
    ("docdeny", "ls /", patched("permissionMode", "full")),
    ("strict", INLINE, patched("permissionMode", "full")),
    ("strict", INLINE, patched("elevatedLevel", "full")),
    ("strict", INLINE, patched("elevatedLevel", "on")),
    ("quiet", INLINE, patched("elevatedLevel", "full")),
    ("docdeny", "ls /", patched("elevatedLevel", "full")),
    ("full", "whoami", directed("/exec ask=always")),
    ("full", "whoami", directed("/exec security=deny")),
    ("main", "whoami", directed("/exec security=full")),
    ("docdeny", "ls /", directed("/exec security=full")),
    (
        "main",
        "whoami",
        Turn {
            setting: Some(("permissionMode", "guarded")),
            directive: "/exec security=full",
        },
    ),
    (
        "full",
        "whoami",
        Turn {
            setting: Some(("permissionMode", "full")),
            directive: "/exec security=deny",
        },
    ),
];

/// An interpreter's inline program: strictInlineEval asks for it.
pub const INLINE: &str = "awk 'BEGIN { print 1 }'";

/// A session's patched field, as `explain exec` takes it.
pub fn session_flag(field: &str) -> &'static str {
    match field {
        "permissionMode" => "--permission-mode",
        "elevatedLevel" => "--elevated",
        other => panic!("no explain flag for the session's {other}"),
    }
}

/// What a real denial's wording must find in the verdict's reason.
pub fn denial_mark(text: &str) -> Option<String> {
    for mark in [
        "allowlist miss",
        "security=deny",
        "Headless runs cannot wait",
        "Automation runs cannot wait",
        "registration failed",
        "execution-plan-miss",
    ] {
        if text.contains(mark) {
            return Some(mark.to_string());
        }
    }
    let at = text.find("SYSTEM_RUN_DENIED: ")?;
    let rest = &text[at + "SYSTEM_RUN_DENIED: ".len()..];
    Some(rest[..rest.find(')')?].to_string())
}

/// One case of the matrix as recorded: an (agent, command) turn on a surface, a session case
/// being an interactive turn in a session mode or with a directive (`turn`), an automation's
/// turn one on the cron surface.
#[derive(Clone, Copy, Debug)]
pub struct MatrixCase {
    pub agent: &'static str,
    pub command: &'static str,
    pub surface: Surface,
    pub turn: Option<Turn>,
}

impl MatrixCase {
    pub fn on(agent: &'static str, command: &'static str, surface: Surface) -> MatrixCase {
        MatrixCase {
            agent,
            command,
            surface,
            turn: None,
        }
    }

    pub fn in_turn(agent: &'static str, command: &'static str, turn: Turn) -> MatrixCase {
        MatrixCase {
            turn: Some(turn),
            ..MatrixCase::on(agent, command, Surface::Interactive)
        }
    }

    /// Every case of the matrix (the forwarding cases need a gateway of their own and are not
    /// recorded).
    pub fn all() -> Vec<MatrixCase> {
        let plain = CASES.iter().flat_map(|(agent, command, surfaces)| {
            surfaces
                .iter()
                .map(|surface| MatrixCase::on(agent, command, *surface))
        });
        let sessions = SESSION_CASES
            .iter()
            .map(|(agent, command, turn)| MatrixCase::in_turn(agent, command, *turn));
        let crons = CRON_CASES
            .iter()
            .map(|(agent, command)| MatrixCase::on(agent, command, Surface::Cron));
        plain.chain(sessions).chain(crons).collect()
    }

    /// As people read it: `main "ls /" headless`, `full "whoami" permissionMode read-only`.
    pub fn label(&self) -> String {
        let how = match self.turn {
            Some(turn) => turn.label().trim().to_string(),
            None => self.surface.as_str().to_string(),
        };
        format!("{} {:?} {how}", self.agent, self.command)
    }

    /// A file-safe name: the label's letters and digits, and a hash of the whole label.
    pub fn id(&self) -> String {
        let label = self.label();
        let mut slug = String::new();
        for c in label.chars() {
            if c.is_ascii_alphanumeric() {
                slug.push(c.to_ascii_lowercase());
            } else if !slug.ends_with('-') {
                slug.push('-');
            }
        }
        let hash = inputs_hash(&[("label", label.as_bytes())]);
        format!("{}-{}", slug.trim_matches('-'), &hash[..6])
    }

    /// What its recording depends on: the case, the agents, the global exec settings and the
    /// approvals document (a change to any of them asks the real OpenClaw again).
    pub fn inputs(&self) -> String {
        let agents = format!("{AGENTS:?}");
        inputs_hash(&[
            ("label", self.label().as_bytes()),
            ("agents", agents.as_bytes()),
            ("global", GLOBAL_EXEC.as_bytes()),
            ("approvals", APPROVALS.as_bytes()),
        ])
    }

    /// The `explain exec` arguments that ask clawdeck about this case.
    pub fn explain_args(&self) -> Vec<String> {
        let mut args: Vec<String> = ["explain", "exec", "--agent", self.agent]
            .into_iter()
            .chain([
                "--command",
                self.command,
                "--surface",
                self.surface.as_str(),
                "--json",
            ])
            .map(String::from)
            .collect();
        if let Some(turn) = self.turn {
            args.extend(turn.flags());
        }
        args
    }
}

/// Runs `explain exec` (`cmd`, with its arguments) for `case`; its whole JSON answer.
pub fn explain_json(mut cmd: std::process::Command, case: &MatrixCase) -> Value {
    let out = cmd.output().expect("clawdeck runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "explain exec {}: {}{text}",
        case.label(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&text).expect("explain exec --json")
}

/// The matrix's config for a release series (`2026.8` knows only the agents' list form, and
/// its multi-agent roster needs a default marked; 2026.9's entries need their ownership
/// explicit); `top` is added at the top level. What the
/// real gateway ran also had start.sh's keys (model provider, gateway): the real test checks
/// that they change no verdict.
pub fn matrix_config(series: &str, top: &str) -> String {
    let agents = if series.starts_with("2026.8") {
        let list: Vec<String> = AGENTS
            .iter()
            .map(|(id, tools)| {
                let default = if *id == "main" { "default: true, " } else { "" };
                format!("{{ id: \"{id}\", {default}tools: {tools} }}")
            })
            .collect();
        format!("list: [{}]", list.join(", "))
    } else {
        let entries: Vec<String> = AGENTS
            .iter()
            .map(|(id, tools)| format!("{id}: {{ tools: {tools} }}"))
            .collect();
        // A roster of several agents is OpenClaw 2026.9's only with its ownership explicit
        // (the gateway's startup repair would add it).
        format!(
            "ownership: \"explicit\", entries: {{ {} }}",
            entries.join(", ")
        )
    };
    format!(
        "tools: {{ {GLOBAL_EXEC} }},\n{top}\nagents: {{ defaults: {{ model: {{ primary: \"mock/mock-1\" }} }}, {agents} }},"
    )
}

/// What is kept of a real turn: its verdict, the mark a denial's wording must show, and the
/// decisions a question offered.
pub fn seen(verdict: &str, text: &str) -> Value {
    let mark = (verdict == "denied").then(|| denial_mark(text)).flatten();
    let decisions = (verdict == "asks")
        .then(|| serde_json::from_str::<Value>(text).ok())
        .flatten()
        .map(|approval| approval["allowedDecisions"].clone())
        .filter(Value::is_array);
    json!({"verdict": verdict, "mark": mark, "decisions": decisions})
}

/// Where clawdeck's answer (`explain exec --json`'s `command`) differs from a real turn `seen`:
/// the verdict, the denial's wording, the decisions a question offers.
pub fn disagreement(seen: &Value, ours: &Value) -> Option<String> {
    let reason = ours["reason"].as_str().unwrap_or_default();
    let verdict_differs = ours["verdict"] != seen["verdict"];
    let wording = seen["mark"].as_str().filter(|mark| !reason.contains(mark));
    let offered = &seen["decisions"];
    let decisions_differ = ours["verdict"] == "asks"
        && offered.is_array()
        && *offered != ours["allowAlways"]["decisions"];
    (verdict_differs || wording.is_some() || decisions_differ).then(|| {
        format!(
            "real {} ({}; offers {}) / clawdeck {} at {} ({reason}; offers {})",
            seen["verdict"],
            seen["mark"],
            seen["decisions"],
            ours["verdict"],
            ours["step"],
            ours["allowAlways"]["decisions"]
        )
    })
}

/// `clawdeck explain exec` on the matrix's config as written here (not a gateway's): the
/// approvals document from a file, a home and state directory of its own, the pack of the
/// release series.
pub struct RecordedConfig {
    dir: tempfile::TempDir,
    series: String,
}

impl RecordedConfig {
    /// For the release `version` (`2026.9.6`: the `2026.9` pack).
    pub fn new(version: &str) -> RecordedConfig {
        let series: String = version.split('.').take(2).collect::<Vec<_>>().join(".");
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config = format!("{{\n{}\n}}\n", matrix_config(&series, ""));
        std::fs::write(dir.path().join("openclaw.json5"), config).expect("the config");
        std::fs::write(dir.path().join("approvals.json5"), APPROVALS).expect("the document");
        std::fs::create_dir_all(dir.path().join("state")).expect("a state directory");
        RecordedConfig { dir, series }
    }

    /// clawdeck's answer for `case` (`explain exec --json`'s `command`).
    pub fn verdict(&self, case: &MatrixCase) -> Value {
        let dir = self.dir.path();
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.arg("--config")
            .arg(dir.join("openclaw.json5"))
            .args(["--openclaw-version", &self.series])
            .args(case.explain_args())
            .arg("--approvals")
            .arg(dir.join("approvals.json5"))
            .env("HOME", dir)
            .env("OPENCLAW_STATE_DIR", dir.join("state"))
            .env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_BIN");
        explain_json(cmd, case)["command"].clone()
    }
}
