//! Every command's help: its own flags come before the shared Context and Global flags, and its
//! long help (`--help`) has examples and exit statuses. Every example in the long helps is run
//! on the embedded demo config with a fresh HOME, so an example cannot drift from what the
//! binary does: it must end with the status its comment names (`# ... exit N`, else 0), or keep
//! running when its comment says `runs until Ctrl-C`.
//!
//! What the examples need besides clawdeck is stood in: `openclaw` is tests/fixtures/fake-openclaw
//! (which answers `gateway call` too), and OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN point to
//! a local fake gateway.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::fake_gateway::{FakeGateway, Script};

/// Every subcommand (parents too) as its path: `["gateway"]`, `["gateway", "status"]`, ...
fn subcommands() -> Vec<(Vec<String>, clap::Command)> {
    fn walk(cmd: &clap::Command, prefix: &[String], out: &mut Vec<(Vec<String>, clap::Command)>) {
        for sub in cmd.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_string());
            out.push((path.clone(), sub.clone()));
            walk(sub, &path, out);
        }
    }
    let mut out = Vec::new();
    walk(&clawdeck::cli::command(), &[], &mut out);
    out
}

fn help(path: &[String], flag: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(path)
        .arg(flag)
        .output()
        .unwrap();
    assert!(out.status.success(), "{path:?} {flag}");
    String::from_utf8(out.stdout).unwrap()
}

/// The line index of a help heading (`Context:`), if present.
fn heading(text: &str, name: &str) -> Option<usize> {
    text.lines().position(|l| l == format!("{name}:"))
}

#[test]
fn each_commands_own_flags_come_before_the_context_and_global_flags() {
    let mut problems = Vec::new();
    for (path, cmd) in subcommands() {
        let own: Vec<String> = cmd
            .get_arguments()
            .filter(|a| !a.is_global_set() && !a.is_hide_set())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        for flag in ["-h", "--help"] {
            let text = help(&path, flag);
            // Commands that take no context (and completions and man no global flag either)
            // list only their own flags.
            let first = path[0].as_str();
            if ["paths", "completions", "man"].contains(&first) {
                if heading(&text, "Context").is_some() || text.contains("--agent") {
                    problems.push(format!("{path:?} {flag}: lists the context flags"));
                }
                let global = text.contains("--raw") || text.contains("--openclaw-version");
                if global || first != "paths" && text.contains("--config") {
                    problems.push(format!("{path:?} {flag}: lists global flags it ignores"));
                }
                continue;
            }
            let (Some(context), Some(global)) =
                (heading(&text, "Context"), heading(&text, "Global"))
            else {
                problems.push(format!("{path:?} {flag}: no Context or Global heading"));
                continue;
            };
            if context > global {
                problems.push(format!("{path:?} {flag}: Global before Context"));
            }
            let lines: Vec<&str> = text.lines().collect();
            for name in &own {
                let listed = lines.iter().position(|l| {
                    l.trim_start()
                        .split([' ', ','])
                        .any(|word| word == name || word.starts_with(&format!("{name}=")))
                        && l.trim_start().starts_with('-')
                });
                match listed {
                    Some(at) if at < context => {}
                    Some(at) => problems.push(format!(
                        "{path:?} {flag}: {name} listed at line {at}, after the Context heading ({context})"
                    )),
                    None => problems.push(format!("{path:?} {flag}: {name} not listed")),
                }
            }
            // The shared flags are under their headings, not among the command's own.
            for shared in ["--agent", "--sender-id", "--sandboxed"] {
                if own.iter().any(|o| o == shared) {
                    continue;
                }
                if let Some(at) = lines
                    .iter()
                    .position(|l| l.trim_start().starts_with(&format!("{shared} ")))
                    && at < context
                {
                    problems.push(format!(
                        "{path:?} {flag}: {shared} before the Context heading"
                    ));
                }
            }
            if let Some(at) = lines
                .iter()
                .position(|l| l.trim_start().starts_with("--config "))
                && at < global
            {
                problems.push(format!(
                    "{path:?} {flag}: --config before the Global heading"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn each_commands_long_help_has_examples_and_exit_statuses() {
    let mut problems = Vec::new();
    for (path, _) in subcommands() {
        let text = help(&path, "--help");
        for section in ["Examples:", "Exit status"] {
            if !text.contains(section) {
                problems.push(format!("{path:?}: no {section:?} in --help"));
            }
        }
        if examples(&text).is_empty() {
            problems.push(format!("{path:?}: no `  $ clawdeck ...` example line"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One example from a long help.
#[derive(Debug, Clone, PartialEq)]
struct Example {
    line: String,
    args: Vec<String>,
    expect: Expect,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    Exit(i32),
    RunsUntilStopped,
}

/// The `  $ clawdeck ...` lines of a help text.
fn examples(text: &str) -> Vec<Example> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("$ clawdeck"))
        .map(|rest| {
            let (command, comment) = split_comment(rest);
            let expect = if comment.contains("runs until Ctrl-C") {
                Expect::RunsUntilStopped
            } else {
                let status = comment
                    .split("exit ")
                    .nth(1)
                    .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                Expect::Exit(status)
            };
            Example {
                line: format!("clawdeck{rest}"),
                args: shell_words(command),
                expect,
            }
        })
        .collect()
}

/// The command and its `# comment` (a `#` outside quotes after a blank).
fn split_comment(line: &str) -> (&str, &str) {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if previous == ' ' => return (&line[..i], &line[i + 1..]),
            _ => {}
        }
        previous = c;
    }
    (line, "")
}

/// Words as a POSIX shell splits them (single and double quotes; no expansions).
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in text.chars() {
        match (quote, c) {
            (None, ' ') => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (Some(q), c) if c == q => quote = None,
            (_, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

#[test]
fn the_example_parser_reads_quotes_comments_and_statuses() {
    let text = "Examples:\n  $ clawdeck invoke read -p '{\"path\": \"a b\"}'   # refused: exit 3\n  $ clawdeck watch   # runs until Ctrl-C\n  $ clawdeck dispatch \"/x y\"\n";
    let found = examples(text);
    assert_eq!(
        found[0].args,
        ["invoke", "read", "-p", "{\"path\": \"a b\"}"]
    );
    assert_eq!(found[0].expect, Expect::Exit(3));
    assert_eq!(found[1].expect, Expect::RunsUntilStopped);
    assert_eq!(found[2].args, ["dispatch", "/x y"]);
    assert_eq!(found[2].expect, Expect::Exit(0));
}

/// Runs one example on a fresh HOME; None when it did what its comment says.
fn run_example(example: &Example, gateway: &FakeGateway) -> Option<String> {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_clawdeck"));
    // Examples that name the default gateway address (`verify --gateway URL`) are pointed at
    // the fake: clawdeck asks it itself.
    let args = example.args.iter().map(|arg| {
        if arg == "http://127.0.0.1:18789" {
            gateway.url.clone()
        } else {
            arg.clone()
        }
    });
    cmd.args(args)
        .env("HOME", home.path())
        .env_remove("OPENCLAW_CONFIG_PATH")
        .env_remove("CLAWDECK_OPENCLAW_VERSION")
        .env_remove("CLAWDECK_MCP_TOKEN")
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env(
            "OPENCLAW_BIN",
            format!(
                "{}/tests/fixtures/fake-openclaw",
                env!("CARGO_MANIFEST_DIR")
            ),
        )
        .env("OPENCLAW_GATEWAY_URL", &gateway.url)
        .env("OPENCLAW_GATEWAY_TOKEN", "fake-token")
        // A command that runs until stopped keeps a stdin that stays open, as a terminal's.
        .stdin(if example.expect == Expect::RunsUntilStopped {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let output = |child: std::process::Child| {
        let out = child.wait_with_output().unwrap();
        (
            out.status,
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    match example.expect {
        Expect::RunsUntilStopped => {
            std::thread::sleep(Duration::from_secs(3));
            if let Some(status) = child.try_wait().unwrap() {
                let (_, out, err) = output(child);
                return Some(format!(
                    "{}: ended ({status}) instead of running until stopped\n{out}{err}",
                    example.line
                ));
            }
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(child.id() as i32),
                nix::sys::signal::Signal::SIGINT,
            );
            let deadline = Instant::now() + Duration::from_secs(15);
            while child.try_wait().unwrap().is_none() {
                if Instant::now() > deadline {
                    let _ = child.kill();
                    return Some(format!("{}: did not end on Ctrl-C", example.line));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            None
        }
        Expect::Exit(expected) => {
            // Read while it runs: an output larger than the pipe's buffer (a completion
            // script) would otherwise block the example until the deadline.
            let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
                std::thread::spawn(move || {
                    let mut bytes = Vec::new();
                    if let Some(mut pipe) = pipe {
                        let _ = pipe.read_to_end(&mut bytes);
                    }
                    String::from_utf8_lossy(&bytes).into_owned()
                })
            };
            let out = read(child.stdout.take().map(|p| Box::new(p) as _));
            let err = read(child.stderr.take().map(|p| Box::new(p) as _));
            let deadline = Instant::now() + Duration::from_secs(60);
            let status = loop {
                if let Some(status) = child.try_wait().unwrap() {
                    break status;
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    return Some(format!("{}: still running after 60 s", example.line));
                }
                std::thread::sleep(Duration::from_millis(50));
            };
            let (out, err) = (out.join().unwrap(), err.join().unwrap());
            (status.code() != Some(expected)).then(|| {
                format!(
                    "{}: exit {:?}, the help says {expected}\nstdout: {}\nstderr: {err}",
                    example.line,
                    status.code(),
                    out.chars().take(2000).collect::<String>()
                )
            })
        }
    }
}

#[test]
fn every_example_in_the_long_helps_runs_as_documented() {
    // The examples act on agent:ops:main: the fake has it (abort, steer and send act only on a
    // gateway that has the session).
    let gateway = FakeGateway::start(Script::everything().answer(
        "sessions.list",
        serde_json::json!({"sessions": [
            {"key": "agent:main:main", "agentId": "main", "kind": "main", "updatedAt": 1},
            {"key": "agent:ops:main", "agentId": "ops", "kind": "main", "updatedAt": 2},
        ]}),
    ));
    let mut seen = Vec::new();
    for (path, _) in subcommands() {
        for example in examples(&help(&path, "--help")) {
            if !seen.contains(&example) {
                seen.push(example);
            }
        }
    }
    assert!(seen.len() >= 30, "{} examples", seen.len());
    // A few at a time: the ones that run until stopped mostly wait.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = seen
            .chunks(seen.len().div_ceil(6))
            .map(|chunk| {
                let gateway = &gateway;
                scope.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|example| run_example(example, gateway))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
