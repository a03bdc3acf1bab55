use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use super::*;
use crate::call_outcome::CallOutcome;
use crate::context::PolicyContext;
use crate::stages::hooks::HookStep;
use crate::tool::ToolResult;

fn facts<'a>(ctx: &'a PolicyContext, params: &'a Value) -> CallFacts<'a> {
    CallFacts {
        client: Some("claude-code"),
        context: ctx,
        requested_tool: "bash",
        params,
        started_at: SystemTime::UNIX_EPOCH + Duration::from_millis(1_795_563_610_123),
        duration: Duration::from_millis(42),
    }
}

fn completed(details: Value, is_error: bool) -> CallOutcome {
    CallOutcome::Completed {
        tool: "exec".to_string(),
        result: ToolResult::text("out", details),
        is_error,
        hooks: vec![HookStep::Passed {
            hook: "audit".to_string(),
            changed: vec![],
        }],
        lane: "main".to_string(),
        duration: Duration::from_millis(40),
    }
}

fn record(n: usize) -> DecisionRecord {
    let ctx = PolicyContext::default();
    let params = json!({"n": n});
    DecisionRecord::from_call(
        &facts(&ctx, &params),
        &CallOutcome::Cancelled {
            tool: format!("tool{n}"),
            killed_by_operator: false,
        },
    )
}

fn small(max_bytes: u64, keep: usize) -> DecisionLogSettings {
    DecisionLogSettings {
        enabled: true,
        max_bytes,
        keep,
    }
}

#[test]
fn a_completed_call_records_names_context_hash_hooks_and_outcome() {
    let ctx = PolicyContext {
        agent: Some("ops".to_string()),
        channel: Some("telegram".to_string()),
        owner: Some(false),
        sandboxed: true,
        ..PolicyContext::default()
    };
    let params = json!({"command": "secret-token-123"});
    let rec = DecisionRecord::from_call(
        &facts(&ctx, &params),
        &completed(json!({"status": "completed"}), false),
    );
    assert_eq!(rec.client.as_deref(), Some("claude-code"));
    assert_eq!(rec.time, "2026-11-24T23:40:10.123Z");
    assert_eq!(rec.tool.requested, "bash");
    assert_eq!(rec.tool.canonical, "exec");
    assert_eq!(rec.decision, DecisionKind::Shown);
    assert_eq!(rec.outcome, Some(CallEnd::Ok));
    assert_eq!(rec.lane.as_deref(), Some("main"));
    assert_eq!(rec.duration_ms, 42);
    assert_eq!(rec.args_sha256, args_sha256(&params));
    assert_eq!(
        rec.hooks,
        vec![json!({"outcome": "passed", "hook": "audit", "changed": []})]
    );
    // Unset context fields are left out; set ones (false owner included) stay.
    assert_eq!(
        rec.context,
        json!({"agent": "ops", "channel": "telegram", "owner": false, "sandboxed": true})
    );
    let line = rec.to_line();
    assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
    assert!(
        !line.contains("secret-token-123"),
        "arguments leaked: {line}"
    );
    let back: DecisionRecord = serde_json::from_str(&line).unwrap();
    assert_eq!(back, rec);
}

#[test]
fn outcomes_map_to_decisions_and_ends() {
    let ctx = PolicyContext::default();
    let params = json!({});
    let f = facts(&ctx, &params);
    let timed_out = DecisionRecord::from_call(&f, &completed(json!({"status": "timeout"}), true));
    assert_eq!(timed_out.outcome, Some(CallEnd::TimedOut));
    let error = DecisionRecord::from_call(&f, &completed(json!({"status": "error"}), true));
    assert_eq!(error.outcome, Some(CallEnd::Error));
    let blocked = DecisionRecord::from_call(
        &f,
        &CallOutcome::Blocked {
            tool: "exec".to_string(),
            reason: "no rm".to_string(),
            hooks: vec![HookStep::Blocked {
                hook: "guard".to_string(),
                reason: "no rm".to_string(),
            }],
        },
    );
    assert_eq!(blocked.decision, DecisionKind::Blocked);
    assert_eq!(blocked.outcome, None);
    assert_eq!(blocked.reason.as_deref(), Some("no rm"));
    assert_eq!(blocked.hooks[0]["outcome"], "blocked");
    let invalid = DecisionRecord::from_call(
        &f,
        &CallOutcome::InvalidParams {
            tool: "exec".to_string(),
            problems: vec!["/command: \"hunter2\" is not a string".to_string()],
        },
    );
    assert_eq!(invalid.decision, DecisionKind::InvalidParams);
    // Problems can quote the arguments: only their number is kept.
    assert_eq!(invalid.reason.as_deref(), Some("1 schema problem"));
    let cancelled = DecisionRecord::from_call(
        &f,
        &CallOutcome::Cancelled {
            tool: "exec".to_string(),
            killed_by_operator: false,
        },
    );
    assert_eq!(cancelled.decision, DecisionKind::Shown);
    assert_eq!(cancelled.outcome, Some(CallEnd::Cancelled));
}

#[test]
fn records_go_to_the_live_file_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let log = DecisionLog::open(dir.path().join("decisions"), DecisionLogSettings::default());
    log.try_append(&record(1)).unwrap();
    log.try_append(&record(2)).unwrap();
    let entries = read_all(log.dir());
    let tools: Vec<String> = entries
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    assert_eq!(tools, ["tool1", "tool2"]);
}

#[test]
fn a_disabled_log_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let log = DecisionLog::open(
        dir.path(),
        DecisionLogSettings {
            enabled: false,
            ..DecisionLogSettings::default()
        },
    );
    log.try_append(&record(1)).unwrap();
    assert!(log_files(dir.path()).is_empty());
}

#[test]
fn rotation_keeps_n_files_and_every_record_within_them() {
    let dir = tempfile::tempdir().unwrap();
    // Three records per file (the longest line leaves room for ids a digit longer).
    let line_len = record(99).to_line().len() as u64 + 2;
    let log = DecisionLog::open(dir.path(), small(line_len * 3, 2));
    for n in 0..8 {
        log.try_append(&record(n)).unwrap();
    }
    let files = log_files(dir.path());
    assert_eq!(
        files,
        [
            log_file(dir.path(), 2),
            log_file(dir.path(), 1),
            log_file(dir.path(), 0)
        ]
    );
    for f in &files {
        assert!(std::fs::metadata(f).unwrap().len() <= line_len * 3);
    }
    let tools: Vec<String> = read_all(dir.path())
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    assert_eq!(
        tools,
        (0..8).map(|n| format!("tool{n}")).collect::<Vec<_>>()
    );
    // Two more rotations: the oldest file is dropped, never more than `keep` copies.
    for n in 8..14 {
        log.try_append(&record(n)).unwrap();
    }
    assert_eq!(log_files(dir.path()).len(), 3);
    // What is left is the newest records, in order, without a gap (the boundaries depend on
    // line lengths: ids and names grow a digit).
    let tools: Vec<String> = read_all(dir.path())
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    let first: usize = tools[0].trim_start_matches("tool").parse().unwrap();
    assert!(first >= 3, "the oldest file was dropped: {tools:?}");
    assert_eq!(
        tools,
        (first..14).map(|n| format!("tool{n}")).collect::<Vec<_>>()
    );
}

#[test]
fn concurrent_appends_from_threads_and_logs_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // Two independent DecisionLogs on one dir stand for two processes (separate files, same
    // lock file), each shared by four threads; small files force many rotations.
    let logs = [
        Arc::new(DecisionLog::open(dir.path(), small(4096, 1000))),
        Arc::new(DecisionLog::open(dir.path(), small(4096, 1000))),
    ];
    let mut threads = Vec::new();
    for t in 0..8 {
        let log = Arc::clone(&logs[t % 2]);
        threads.push(std::thread::spawn(move || {
            for n in 0..100 {
                log.try_append(&record(t * 1000 + n)).unwrap();
            }
        }));
    }
    for t in threads {
        t.join().unwrap();
    }
    let entries = read_all(dir.path());
    let ids: HashSet<String> = entries.iter().map(|e| e.clone().unwrap().id).collect();
    let tools: HashSet<String> = entries
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    assert_eq!(ids.len(), 800, "every record once, ids unique");
    assert_eq!(tools.len(), 800);
    assert!(log_files(dir.path()).len() > 2, "rotation happened");
}

#[test]
fn a_bad_line_is_reported_with_its_place_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let log = DecisionLog::open(dir.path(), DecisionLogSettings::default());
    log.try_append(&record(1)).unwrap();
    let live = log_file(dir.path(), 0);
    let mut text = std::fs::read_to_string(&live).unwrap();
    text.push_str("{not json\n");
    std::fs::write(&live, text).unwrap();
    log.try_append(&record(2)).unwrap();
    let entries = read_all(dir.path());
    assert_eq!(entries.len(), 3);
    let bad = entries[1].clone().unwrap_err();
    assert_eq!(bad.line, 2);
    assert!(
        bad.to_string()
            .starts_with(&format!("{}:2: ", live.display()))
    );
    assert_eq!(entries[2].clone().unwrap().tool.canonical, "tool2");
}

#[test]
fn the_follower_sees_new_records_across_a_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let line_len = record(0).to_line().len() as u64;
    let log = DecisionLog::open(dir.path(), small(line_len * 2 + 2, 3));
    log.try_append(&record(0)).unwrap();
    let (earlier, mut follower) = LogFollower::last(dir.path(), 10);
    assert_eq!(earlier.len(), 1);
    assert!(follower.poll().is_empty());
    // record 1 fills the file; 2 rotates it away; 3 lands in the new file.
    for n in 1..4 {
        log.try_append(&record(n)).unwrap();
    }
    let seen: Vec<String> = follower
        .poll()
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    assert_eq!(seen, ["tool1", "tool2", "tool3"]);
    // A record being written (no newline yet) waits for its end.
    let live = log_file(dir.path(), 0);
    let partial = record(4).to_line();
    let (head, tail) = partial.split_at(10);
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&live)
        .unwrap();
    std::io::Write::write_all(&mut file, head.as_bytes()).unwrap();
    assert!(follower.poll().is_empty());
    std::io::Write::write_all(&mut file, tail.as_bytes()).unwrap();
    assert_eq!(follower.poll().len(), 1);
}

#[test]
fn last_keeps_only_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let log = DecisionLog::open(dir.path(), DecisionLogSettings::default());
    for n in 0..5 {
        log.try_append(&record(n)).unwrap();
    }
    let (last, _) = LogFollower::last(dir.path(), 2);
    let tools: Vec<String> = last
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    assert_eq!(tools, ["tool3", "tool4"]);
}

#[test]
fn a_write_failure_is_counted_not_raised() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    // A directory under a regular file cannot be created.
    let log = DecisionLog::open(blocker.join("decisions"), DecisionLogSettings::default());
    log.append(&record(1));
    log.append(&record(2));
    assert_eq!(log.failures(), 2);
}

#[test]
fn settings_read_from_clawdeck_json5() {
    let s: DecisionLogSettings =
        json5::from_str("{ maxBytes: 2048, keep: 3, enabled: false }").unwrap();
    assert_eq!(
        s,
        DecisionLogSettings {
            enabled: false,
            max_bytes: 2048,
            keep: 3
        }
    );
    assert!(json5::from_str::<DecisionLogSettings>("{ maxbytes: 8192 }").is_err());
    let small = json5::from_str::<DecisionLogSettings>("{ maxBytes: 100 }").unwrap_err();
    assert!(small.to_string().contains("at least 1024"), "{small}");
    let many = json5::from_str::<DecisionLogSettings>("{ keep: 1001 }").unwrap_err();
    assert!(many.to_string().contains("at most 1000"), "{many}");
}

#[test]
fn the_follower_started_before_the_log_existed_misses_no_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let logdir = dir.path().join("decisions");
    let (none, mut follower) = LogFollower::last(&logdir, 10);
    assert!(none.is_empty());
    let line_len = record(0).to_line().len() as u64;
    // Two records per file, four rotations before the next poll.
    let log = DecisionLog::open(&logdir, small(line_len * 2 + 2, 10));
    for n in 0..9 {
        log.try_append(&record(n)).unwrap();
    }
    let seen: Vec<String> = follower
        .poll()
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    assert_eq!(seen, (0..9).map(|n| format!("tool{n}")).collect::<Vec<_>>());
    // Three more rotations while the follower holds the live file open.
    for n in 9..15 {
        log.try_append(&record(n)).unwrap();
    }
    let seen: Vec<String> = follower
        .poll()
        .into_iter()
        .map(|e| e.unwrap().tool.canonical)
        .collect();
    assert_eq!(
        seen,
        (9..15).map(|n| format!("tool{n}")).collect::<Vec<_>>()
    );
    assert!(follower.poll().is_empty());
}

/// The real writer (`DecisionLog::try_append`) and the real readers (`read_all`, the follower)
/// agree on every kind of record, field for field, with text that needs escaping.
#[test]
fn every_kind_of_record_reads_back_exactly_as_written() {
    let cfg = crate::config::load_from_str(r#"{ tools: { deny: ["exec"] } }"#, "<test>").unwrap();
    let registry = crate::catalog::Registry::build(&cfg, &crate::mcp_servers::ServerListing::Off);
    let ctx = PolicyContext {
        agent: Some("main".into()),
        provider: Some("openai".into()),
        channel: Some("telegram".into()),
        group: Some("-100123456".into()),
        sender_name: Some("Zoë \"quoted\"\nsecond line\t\u{1b}[31m".into()),
        subagent_depth: Some(2),
        ..PolicyContext::default()
    };
    let resolution = crate::policy::resolve(&cfg, &registry, &ctx).unwrap();
    let trace = resolution.trace("exec").unwrap().clone();
    let params = json!({"command": "ls -la ✓", "nested": {"b": 1, "a": [1, 2]}});
    let outcomes = [
        CallOutcome::UnknownTool {
            tool: "nosuch".to_string(),
            message: "no tool named nosuch".to_string(),
        },
        CallOutcome::Refused {
            tool: "exec".to_string(),
            trace: Box::new(trace),
            explanation: "exec: HIDDEN".to_string(),
        },
        CallOutcome::InvalidParams {
            tool: "read".to_string(),
            problems: vec!["/path: missing".to_string(), "/x: extra".to_string()],
        },
        CallOutcome::Blocked {
            tool: "exec".to_string(),
            reason: "guard said \"no\"\nand meant it".to_string(),
            hooks: vec![
                HookStep::Passed {
                    hook: "audit".to_string(),
                    changed: vec!["command".to_string()],
                },
                HookStep::Blocked {
                    hook: "guard".to_string(),
                    reason: "no".to_string(),
                },
            ],
        },
        CallOutcome::Cancelled {
            tool: "exec".to_string(),
            killed_by_operator: true,
        },
        completed(json!({"status": "ok"}), false),
        completed(json!({"status": "timeout"}), true),
        completed(json!({"status": "error"}), true),
    ];
    let written: Vec<DecisionRecord> = outcomes
        .iter()
        .map(|outcome| DecisionRecord::from_call(&facts(&ctx, &params), outcome))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let log = DecisionLog::open(dir.path().join("decisions"), DecisionLogSettings::default());
    for record in &written {
        log.try_append(record).unwrap();
    }
    let read: Vec<DecisionRecord> = read_all(log.dir())
        .into_iter()
        .map(|entry| entry.unwrap())
        .collect();
    assert_eq!(read, written);
    let followed: Vec<DecisionRecord> = LogFollower::from_start(log.dir())
        .poll()
        .into_iter()
        .map(|entry| entry.unwrap())
        .collect();
    assert_eq!(followed, written);
}

#[test]
fn a_fifo_or_link_in_place_of_the_log_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let live = log_file(dir.path(), 0);
    nix::unistd::mkfifo(&live, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let log = DecisionLog::open(dir.path(), DecisionLogSettings::default());
    let checked = log.check_files().unwrap_err();
    assert!(checked.contains("decisions.jsonl is a FIFO"), "{checked}");
    // Writing anyway (a FIFO that appeared after the check) fails at once instead of blocking.
    let err = log.try_append(&record(1)).unwrap_err();
    assert!(err.contains("a FIFO, not a regular file"), "{err}");
    // Reading names the file and goes on.
    let entries = read_all(dir.path());
    assert_eq!(entries.len(), 1);
    let bad = entries[0].as_ref().unwrap_err();
    assert_eq!(bad.file, live);
    assert!(bad.problem.contains("a FIFO"), "{bad}");
    let mut follower = LogFollower::from_start(dir.path());
    assert_eq!(follower.poll().len(), 1, "reported once");
    assert!(follower.poll().is_empty(), "not again");

    std::fs::remove_file(&live).unwrap();
    let target = dir.path().join("elsewhere");
    std::fs::write(&target, "").unwrap();
    std::os::unix::fs::symlink(&target, &live).unwrap();
    let err = log.try_append(&record(2)).unwrap_err();
    assert!(err.contains("a symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "");
}

#[test]
fn a_created_log_is_private_to_its_owner() {
    use std::os::unix::fs::PermissionsExt;
    let base = tempfile::tempdir().unwrap();
    let dir = base.path().join("decisions");
    let log = DecisionLog::open(&dir, DecisionLogSettings::default());
    log.try_append(&record(1)).unwrap();
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&log_file(&dir, 0)) & 0o077, 0);
}
