//! A reader that goes away (`clawdeck lint | head -1`) ends every command quietly: no panic, no
//! exit status 101, no death by SIGPIPE, nothing on stderr about the pipe; the command ends with
//! the status it has without a reader. Every subcommand of the clap definition is run (a new
//! one fails `every_subcommand_ends_quietly_when_the_reader_is_gone` until it is given a
//! command line here); the gateway commands run against a local fake gateway.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use clap::CommandFactory;
use support::fake_gateway::{FakeGateway, Script};

/// How long one command may take into a closed pipe: the watchers must notice the reader left
/// without waiting for an event (they look twice a second; the slowest other command, a route
/// with a scripted child, takes some 4 s here).
const COMMAND_LIMIT: Duration = Duration::from_secs(20);

/// A scratch home for one test: config, workspace, state (decision log), data (packs).
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("openclaw.json"),
            r#"{ "tools": { "profile": "full" } }"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("clawdeck.json5"),
            format!("{{ workspace: \"{}\" }}", dir.path().display()),
        )
        .unwrap();
        std::fs::write(dir.path().join("f.txt"), "line\n".repeat(1000)).unwrap();
        // `verify --gateway` asks the real CLI's `gateway call`; this stand-in answers it.
        let fake = dir.path().join("fake-openclaw-call");
        std::fs::write(
            &fake,
            "#!/bin/sh\necho '{\"agentId\":\"main\",\"groups\":[{\"id\":\"core\",\"tools\":[{\"id\":\"read\",\"source\":\"core\"}]}]}'\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        Scratch { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn config(&self) -> String {
        self.path("openclaw.json").display().to_string()
    }

    fn command(&self) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
        cmd.env_remove("OPENCLAW_CONFIG_PATH")
            .env_remove("OPENCLAW_GATEWAY_URL")
            .env_remove("CLAWDECK_OPENCLAW_VERSION")
            .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
            .env("HOME", self.path("home"))
            .env("XDG_STATE_HOME", self.path("state"))
            .env("XDG_DATA_HOME", self.path("data"))
            .env("XDG_CONFIG_HOME", self.path("config"))
            .env(
                "OPENCLAW_BIN",
                format!(
                    "{}/tests/fixtures/fake-openclaw",
                    env!("CARGO_MANIFEST_DIR")
                ),
            );
        cmd
    }
}

/// What one run into a closed pipe did.
struct Run {
    status: ExitStatus,
    stderr: String,
}

/// Runs clawdeck with `args`, its stdout a pipe whose read end is already closed, `stdin` on
/// its stdin; kills it after `COMMAND_LIMIT`.
fn run_into_closed_pipe(scratch: &Scratch, args: &[String], stdin: &str) -> Run {
    let (read_end, write_end) = nix::unistd::pipe().unwrap();
    drop(read_end);
    let mut child = scratch
        .command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin.as_bytes());
    }
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut { stderr }, &mut text);
        text
    });
    let deadline = Instant::now() + COMMAND_LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {COMMAND_LIMIT:?} into a closed pipe");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run {
        status,
        stderr: reader.join().unwrap(),
    }
}

/// Every leaf of the clap definition (`tools`, `gateway status`, ...), without clap's `help`.
fn subcommand_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_string());
            if sub.has_subcommands() {
                walk(sub, &path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&clawdeck::cli::Cli::command(), &[], &mut out);
    out
}

/// The command lines that make `path` print on stdout (and, for `mcp`, what its stdin gets);
/// None for a subcommand nobody has given one yet.
fn command_lines(
    path: &str,
    scratch: &Scratch,
    gateway: &str,
) -> Option<Vec<(Vec<String>, String)>> {
    let config = scratch.config();
    let fake_call = scratch.path("fake-openclaw-call").display().to_string();
    let line = |args: &[&str]| {
        let mut all = vec!["--config".to_string(), config.clone()];
        all.extend(args.iter().map(|a| a.to_string()));
        (all, String::new())
    };
    let on_gateway = |args: &[&str]| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--gateway", gateway]);
        line(&all)
    };
    let initialize = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","#,
        r#""capabilities":{},"clientInfo":{"name":"pipe-test","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "\n",
    );
    Some(match path {
        "tools" => vec![line(&["tools"]), line(&["tools", "--json"])],
        "explain" => vec![line(&["explain"]), line(&["explain", "--json"])],
        "invoke" => vec![
            line(&["invoke", "read", "-p", r#"{"path": "f.txt"}"#]),
            line(&[
                "invoke",
                "exec",
                "--json",
                "-p",
                r#"{"command": "echo hi"}"#,
            ]),
        ],
        "route" => vec![
            line(&[
                "route",
                "--agent",
                "main",
                "-m",
                "[[scenario:interleave:50]] hello",
            ]),
            line(&["route", "--json", "--agent", "main", "-m", "hello"]),
        ],
        "schema" => vec![line(&["schema"]), line(&["schema", "--json"])],
        "prompt" => vec![line(&["prompt"]), line(&["prompt", "--json"])],
        "dispatch" => vec![line(&["dispatch", "--json", "--dry-run", "/nothing here"])],
        "verify" => vec![line(&[
            "verify",
            "--gateway",
            gateway,
            "--session",
            "agent:main:main",
            "--openclaw",
            &fake_call,
        ])],
        "gateway status" => vec![
            on_gateway(&["gateway", "status"]),
            on_gateway(&["gateway", "status", "--json"]),
        ],
        "gateway sessions" => vec![
            on_gateway(&["gateway", "sessions"]),
            on_gateway(&["gateway", "sessions", "--json"]),
        ],
        "gateway watch" => vec![
            on_gateway(&["gateway", "watch"]),
            on_gateway(&["gateway", "watch", "--json"]),
        ],
        "gateway effective" => vec![
            on_gateway(&["gateway", "effective", "--session", "agent:main:main"]),
            on_gateway(&[
                "gateway",
                "effective",
                "--session",
                "agent:main:main",
                "--json",
            ]),
        ],
        "gateway history" => vec![
            on_gateway(&["gateway", "history", "agent:main:main"]),
            on_gateway(&["gateway", "history", "agent:main:main", "--json"]),
        ],
        "gateway health" => vec![
            on_gateway(&["gateway", "health"]),
            on_gateway(&["gateway", "health", "--json"]),
        ],
        // Not --follow: with a reader it would run until interrupted.
        "gateway logs" => vec![
            on_gateway(&["gateway", "logs"]),
            on_gateway(&["gateway", "logs", "--json"]),
        ],
        "gateway abort" => vec![on_gateway(&["gateway", "abort", "agent:main:main"])],
        "gateway steer" => vec![on_gateway(&[
            "gateway",
            "steer",
            "agent:main:main",
            "-m",
            "hi",
        ])],
        "gateway send" => vec![on_gateway(&[
            "gateway",
            "send",
            "agent:main:main",
            "-m",
            "hi",
        ])],
        "chat" => vec![
            on_gateway(&["chat", "--session", "agent:main:main", "-m", "hi"]),
            on_gateway(&["chat", "--session", "agent:main:main", "-m", "hi", "--json"]),
        ],
        "approvals watch" => vec![
            on_gateway(&["approvals", "watch"]),
            on_gateway(&["approvals", "watch", "--json"]),
        ],
        "approvals resolve" => vec![on_gateway(&["approvals", "resolve", "ap1", "deny"])],
        "approvals pending" => vec![
            on_gateway(&["approvals", "pending"]),
            on_gateway(&["approvals", "pending", "--json"]),
        ],
        "approvals history" => vec![
            on_gateway(&["approvals", "history"]),
            on_gateway(&["approvals", "history", "--json"]),
        ],
        "approvals grants" => vec![
            on_gateway(&["approvals", "grants"]),
            on_gateway(&["approvals", "grants", "--json"]),
        ],
        "approvals revoke" => vec![on_gateway(&["approvals", "revoke", "g1"])],
        "catalog sync" => vec![
            on_gateway(&["catalog", "sync"]),
            on_gateway(&["catalog", "sync", "--json"]),
        ],
        "lint" => vec![line(&["lint"]), line(&["lint", "--json"])],
        "diff" => vec![
            line(&["diff", "--vs", "sandboxed=true"]),
            line(&["diff", "--json", "--vs", "sandboxed=true"]),
        ],
        "mcp" => vec![(line(&["mcp", "--no-watch"]).0, initialize.to_string())],
        "log" => vec![
            line(&["log"]),
            line(&["log", "--json"]),
            line(&["log", "--follow"]),
        ],
        "paths" => vec![line(&["paths"]), line(&["paths", "--json"])],
        "completions" => vec![
            line(&["completions", "bash"]),
            line(&["completions", "zsh"]),
            line(&["completions", "fish"]),
            line(&["completions", "powershell"]),
        ],
        "man" => vec![line(&["man"]), line(&["man", "gateway", "status"])],
        _ => return None,
    })
}

/// The status each command has with a reader (the closed pipe must not change it).
fn status_with_a_reader(scratch: &Scratch, args: &[String], stdin: &str) -> Option<i32> {
    let mut child = scratch
        .command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin.as_bytes());
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            // A watcher: it runs until stopped, so it has no status of its own to compare.
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn quiet(run: &Run) -> Result<(), String> {
    let stderr = run.stderr.to_lowercase();
    if stderr.contains("panicked")
        || stderr.contains("broken pipe")
        || stderr.contains("os error 32")
    {
        return Err(format!("stderr mentions the pipe: {}", run.stderr));
    }
    if run.status.signal().is_some() {
        return Err(format!(
            "killed by signal {:?}: {}",
            run.status.signal(),
            run.stderr
        ));
    }
    if run.status.code() == Some(101) {
        return Err(format!("exit 101: {}", run.stderr));
    }
    Ok(())
}

#[test]
fn every_subcommand_ends_quietly_when_the_reader_is_gone() {
    let scratch = Scratch::new();
    let gateway = FakeGateway::start(Script::everything());
    // A decision record for `log` to print.
    let mut seed = scratch.command();
    seed.args([
        "--config",
        &scratch.config(),
        "invoke",
        "read",
        "-p",
        r#"{"path": "f.txt"}"#,
    ]);
    assert!(seed.output().unwrap().status.success());

    let mut uncovered = Vec::new();
    let mut runs = Vec::new();
    for path in subcommand_paths() {
        let name = path.join(" ");
        match command_lines(&name, &scratch, &gateway.url) {
            Some(lines) => runs.extend(lines),
            None => uncovered.push(name),
        }
    }
    // A few at a time: the watchers mostly wait.
    let check = |(args, stdin): &(Vec<String>, String)| -> Option<String> {
        let run = run_into_closed_pipe(&scratch, args, stdin);
        if let Err(problem) = quiet(&run) {
            return Some(format!("{args:?}: {problem}"));
        }
        let expected = status_with_a_reader(&scratch, args, stdin)?;
        (run.status.code() != Some(expected)).then(|| {
            format!(
                "{args:?}: exit {:?} into a closed pipe, {expected} with a reader: {}",
                run.status.code(),
                run.stderr
            )
        })
    };
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = runs
            .chunks(runs.len().div_ceil(6))
            .map(|chunk| scope.spawn(move || chunk.iter().filter_map(check).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(
        uncovered.is_empty(),
        "subcommands without a command line in tests/broken_pipe.rs: {uncovered:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn help_and_version_end_quietly_when_the_reader_is_gone() {
    let scratch = Scratch::new();
    let mut lines = vec![vec!["--help".to_string()], vec!["--version".to_string()]];
    for path in subcommand_paths() {
        let mut args = path.clone();
        args.push("--help".into());
        lines.push(args);
    }
    for args in lines {
        let run = run_into_closed_pipe(&scratch, &args, "");
        quiet(&run).unwrap_or_else(|p| panic!("{args:?}: {p}"));
        assert_eq!(run.status.code(), Some(0), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn invoke_finishes_its_work_when_the_reader_is_gone() {
    let scratch = Scratch::new();
    let config = scratch.config();
    for args in [
        vec![
            "--config",
            &config,
            "invoke",
            "read",
            "-p",
            r#"{"path": "f.txt"}"#,
        ],
        vec![
            "--config",
            &config,
            "invoke",
            "exec",
            "--json",
            "-p",
            r#"{"command": "echo hi"}"#,
        ],
    ] {
        let args: Vec<String> = args.into_iter().map(str::to_string).collect();
        let run = run_into_closed_pipe(&scratch, &args, "");
        quiet(&run).unwrap_or_else(|p| panic!("{args:?}: {p}"));
        assert_eq!(run.status.code(), Some(0), "{args:?}: {}", run.stderr);
    }
}
