//! The process supervisor against a real, misbehaving child (examples/fake_cli.rs). Every test
//! ends by checking that nothing of the child's process group is left alive.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clawdeck_core::process::{
    self, ExitKind, KillReason, LineEnd, OutputChunk, OutputLimits, ProcessOutcome, ProcessSpec,
    SpawnError, StdStream, StdinMode,
};
use support::{assert_group_gone, assert_pid_gone, fake_cli_str, pid_alive, zombie_children};
use tokio_util::sync::CancellationToken;

const GONE_WITHIN: Duration = Duration::from_secs(2);

fn fake(args: &[&str]) -> ProcessSpec {
    ProcessSpec::new(fake_cli_str()).args(args.iter().copied())
}

async fn run(spec: ProcessSpec) -> ProcessOutcome {
    let running = process::spawn(spec).expect("spawn fake_cli");
    let outcome = running.wait().await;
    assert_group_gone(outcome.pgid, GONE_WITHIN);
    outcome
}

fn count_notes(outcome: &ProcessOutcome, needle: &str) -> usize {
    outcome
        .notes
        .iter()
        .filter(|note| note.contains(needle))
        .count()
}

fn signal_names(outcome: &ProcessOutcome) -> Vec<&str> {
    outcome
        .signals
        .iter()
        .map(|sent| sent.signal.as_str())
        .collect()
}

/// Pids printed by the fake CLI as `<word> <pid>` lines.
fn printed_pids(outcome_text: &str, word: &str) -> Vec<i32> {
    outcome_text
        .lines()
        .filter_map(|line| line.strip_prefix(word)?.trim().parse().ok())
        .collect()
}

#[tokio::test]
async fn lines_from_both_streams_are_kept_apart_and_in_order() {
    let outcome = run(fake(&["lines", "5", "both", "5"])).await;
    assert_eq!(outcome.exit, ExitKind::Code { code: 0 });
    assert!(outcome.success(), "{outcome:?}");
    assert_eq!(outcome.summary(), "exited with code 0");
    assert_eq!(
        outcome.output.stdout_text(),
        "out 0\nout 1\nout 2\nout 3\nout 4\n"
    );
    assert_eq!(
        outcome.output.stderr_text(),
        "err 0\nerr 1\nerr 2\nerr 3\nerr 4\n"
    );
    // With a delay after each pair, arrival order interleaves the two streams.
    let combined = outcome.output.combined_text();
    assert!(
        combined.find("out 1").unwrap() > combined.find("err 0").unwrap(),
        "{combined}"
    );
    assert!(outcome.notes.is_empty(), "{:?}", outcome.notes);
    assert!(outcome.signals.is_empty());
}

#[tokio::test]
async fn chunks_are_stamped_on_arrival_and_seen_while_the_child_runs() {
    let chunks: Arc<Mutex<Vec<OutputChunk>>> = Arc::default();
    let sink = Arc::clone(&chunks);
    let spec = fake(&["lines", "3", "out", "200"])
        .on_chunk(move |chunk| sink.lock().unwrap().push(chunk.clone()));
    let running = process::spawn(spec).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while chunks.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "no chunk arrived");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        !running.is_finished(),
        "first chunk should arrive while the child still runs"
    );
    let outcome = running.wait().await;
    let chunks = chunks.lock().unwrap().clone();
    let texts: Vec<String> = chunks
        .iter()
        .map(|chunk| chunk.text().into_owned())
        .collect();
    assert_eq!(texts, vec!["out 0\n", "out 1\n", "out 2\n"]);
    assert!(chunks.iter().all(|chunk| chunk.stream == StdStream::Stdout));
    // The child sleeps 200 ms after each line, so line i cannot arrive before i * 200 ms:
    // chunks stamped at the end (or all at once) would fail this.
    for (index, chunk) in chunks.iter().enumerate() {
        assert!(
            chunk.elapsed >= Duration::from_millis(190) * index as u32,
            "chunk {index} stamped too early: {:?}",
            chunk.elapsed
        );
    }
    for pair in chunks.windows(2) {
        assert!(pair[1].at > pair[0].at);
    }
    assert_group_gone(outcome.pgid, GONE_WITHIN);
}

#[tokio::test]
async fn subscribers_receive_chunks_until_the_pipes_close() {
    let running = process::spawn(fake(&["lines", "3", "err", "100"])).unwrap();
    let mut chunks = running.subscribe();
    let mut texts = Vec::new();
    while let Ok(chunk) = chunks.recv().await {
        assert_eq!(chunk.stream, StdStream::Stderr);
        texts.push(chunk.text().into_owned());
    }
    // The first line may have arrived before the subscription; the rest must all be there.
    assert!(
        texts.ends_with(&["err 1\n".to_string(), "err 2\n".to_string()]),
        "{texts:?}"
    );
    let outcome = running.wait().await;
    assert_eq!(outcome.output.stderr_text(), "err 0\nerr 1\nerr 2\n");
    assert_group_gone(outcome.pgid, GONE_WITHIN);
}

#[tokio::test]
async fn grandchild_holding_the_pipe_is_killed_after_the_drain_grace() {
    let spec = fake(&["grandchild", "30"]).drain_grace(Duration::from_millis(500));
    let started = Instant::now();
    let outcome = run(spec).await;
    let elapsed = started.elapsed();
    assert_eq!(outcome.exit, ExitKind::Code { code: 0 });
    assert!(
        elapsed >= Duration::from_millis(450) && elapsed < Duration::from_secs(3),
        "{elapsed:?}"
    );
    assert_eq!(
        count_notes(
            &outcome,
            "output pipes still open 500ms after the process exited"
        ),
        1,
        "{:?}",
        outcome.notes
    );
    assert_eq!(signal_names(&outcome), vec!["SIGKILL"]);
    let grandchild = printed_pids(&outcome.output.stdout_text(), "grandchild ");
    assert_eq!(grandchild.len(), 1, "{:?}", outcome.output);
    assert_pid_gone(grandchild[0], GONE_WITHIN);
    // The leader exited by itself: no kill reason.
    assert_eq!(outcome.killed_by, None);
    assert!(
        !outcome.detached,
        "killing the group closed the pipes, so reading finished"
    );
}

#[tokio::test]
async fn sigterm_ignored_gets_sigkill_after_the_grace() {
    // The timeout leaves the child ample time to install SIG_IGN, even on a loaded machine.
    let spec = fake(&["ignore-term", "30"])
        .timeout(Some(Duration::from_millis(800)))
        .kill_grace(Duration::from_millis(300));
    let started = Instant::now();
    let outcome = run(spec).await;
    let elapsed = started.elapsed();
    assert_eq!(
        outcome.exit,
        ExitKind::Signal {
            number: 9,
            name: "SIGKILL".to_string()
        }
    );
    assert!(outcome.timed_out);
    assert_eq!(outcome.killed_by, Some(KillReason::Timeout));
    assert_eq!(signal_names(&outcome), vec!["SIGTERM", "SIGKILL"]);
    assert!(outcome.signals[1].after - outcome.signals[0].after >= Duration::from_millis(290));
    assert!(
        elapsed >= Duration::from_millis(1090) && elapsed < Duration::from_secs(4),
        "{elapsed:?}"
    );
    assert_eq!(
        count_notes(&outcome, "timed out after 800ms: sent SIGTERM"),
        1,
        "{:?}",
        outcome.notes
    );
    assert_eq!(
        count_notes(&outcome, "still running 300ms after SIGTERM: sent SIGKILL"),
        1,
        "{:?}",
        outcome.notes
    );
    assert!(
        outcome
            .summary()
            .starts_with("terminated by timeout after 800ms"),
        "{}",
        outcome.summary()
    );
}

#[tokio::test]
async fn child_that_exits_zero_on_sigterm_after_a_timeout_is_reported_as_timed_out() {
    let spec = fake(&["exit-on-term", "0", "30"]).timeout(Some(Duration::from_millis(800)));
    let outcome = run(spec).await;
    assert_eq!(outcome.exit, ExitKind::Code { code: 0 });
    assert!(outcome.timed_out);
    assert!(
        !outcome.success(),
        "exit 0 after a timeout kill is not a success"
    );
    assert_eq!(
        outcome.summary(),
        "terminated by timeout after 800ms (exit code 0)"
    );
    assert_eq!(signal_names(&outcome), vec!["SIGTERM"]);
}

#[tokio::test]
async fn more_than_64k_on_stderr_while_stdout_is_quiet_does_not_block() {
    let total = 1_000_000;
    let spec =
        fake(&["flood", &total.to_string(), "err", "100"]).timeout(Some(Duration::from_secs(20)));
    let outcome = run(spec).await;
    assert_eq!(outcome.exit, ExitKind::Code { code: 0 });
    assert!(!outcome.timed_out);
    assert_eq!(outcome.output.stderr_bytes, total as u64);
    assert_eq!(outcome.output.stdout_bytes, 0);
    assert_eq!(outcome.output.stderr_lines, (total / 100) as u64);
}

#[tokio::test]
async fn invalid_utf8_is_replaced_per_line_and_the_partial_last_line_is_flushed() {
    let outcome = run(fake(&["invalid-utf8"])).await;
    let lines: Vec<(&str, LineEnd)> = outcome
        .output
        .lines
        .iter()
        .map(|line| (line.text.as_str(), line.end))
        .collect();
    assert_eq!(
        lines,
        vec![
            ("ok line", LineEnd::Newline),
            ("bad \u{fffd}\u{fffd} bytes", LineEnd::Newline),
            ("cut \u{fffd}", LineEnd::Newline),
            ("euro \u{20ac}", LineEnd::Newline),
            ("tail \u{fffd}", LineEnd::Eof),
        ]
    );
}

#[tokio::test]
async fn a_ten_megabyte_line_is_cut_at_the_line_cap_and_retention_stays_bounded() {
    let limits = OutputLimits {
        max_line_bytes: 64 * 1024,
        max_retained_lines: 1000,
        max_retained_bytes: 1024 * 1024,
    };
    let chunk_max = Arc::new(Mutex::new(0usize));
    let sink = Arc::clone(&chunk_max);
    let spec = fake(&["long-line", "10000000"])
        .limits(limits)
        .on_chunk(move |chunk| {
            let mut max = sink.lock().unwrap();
            *max = (*max).max(chunk.bytes.len());
        });
    let outcome = run(spec).await;
    let output = &outcome.output;
    assert_eq!(output.stdout_bytes, 10_000_001);
    assert!(output.lines.iter().all(|line| line.text.len() <= 64 * 1024));
    let retained: usize = output.lines.iter().map(|line| line.text.len()).sum();
    assert!(retained <= 1024 * 1024, "{retained}");
    assert_eq!(retained as u64 + output.dropped_bytes, 10_000_000);
    assert!(output.truncated());
    assert_eq!(
        output.lines.last().map(|line| line.end),
        Some(LineEnd::Newline)
    );
    assert!(
        output.lines[..output.lines.len() - 1]
            .iter()
            .all(|line| line.end == LineEnd::Continued)
    );
    // A live chunk is one read's worth of pieces (the read buffer is 256 KiB), never the whole line.
    assert!(*chunk_max.lock().unwrap() <= 256 * 1024);
}

#[tokio::test]
async fn an_endless_line_without_newline_is_delivered_in_pieces_while_it_grows() {
    let limits = OutputLimits {
        max_line_bytes: 8 * 1024,
        ..OutputLimits::default()
    };
    let seen = Arc::new(Mutex::new(Vec::<usize>::new()));
    let sink = Arc::clone(&seen);
    let spec = fake(&["endless-line"])
        .limits(limits)
        .timeout(Some(Duration::from_millis(500)))
        .on_chunk(move |chunk| sink.lock().unwrap().push(chunk.bytes.len()));
    let outcome = run(spec).await;
    assert!(outcome.timed_out);
    assert_eq!(outcome.exit.signal_name(), Some("SIGTERM"));
    let seen = seen.lock().unwrap();
    assert!(
        seen.len() >= 2,
        "pieces must flow before the line ends: {seen:?}"
    );
    assert!(
        outcome
            .output
            .lines
            .iter()
            .all(|line| line.text.len() <= 8 * 1024 && !line.text.contains('\n'))
    );
}

#[tokio::test]
async fn a_flood_keeps_memory_bounded() {
    let total: u64 = 100 * 1024 * 1024;
    let limits = OutputLimits {
        max_line_bytes: 4096,
        max_retained_lines: 2000,
        max_retained_bytes: 256 * 1024,
    };
    let rss_before = support::proc_status_kib("VmRSS").unwrap_or(0);
    let outcome = run(fake(&["flood", &total.to_string(), "out", "200"]).limits(limits)).await;
    let rss_after = support::proc_status_kib("VmRSS").unwrap_or(0);
    let output = &outcome.output;
    assert_eq!(output.stdout_bytes, total);
    assert!(output.lines.len() <= 2000);
    let retained: u64 = output.lines.iter().map(|line| line.text.len() as u64).sum();
    assert!(retained <= 256 * 1024);
    let all_lines = output.stdout_lines;
    assert_eq!(all_lines, total.div_ceil(200));
    assert_eq!(output.dropped_lines + output.lines.len() as u64, all_lines);
    // 100 MB went through; the process grew by far less (other tests run alongside, hence the slack).
    assert!(
        rss_after.saturating_sub(rss_before) < 48 * 1024,
        "RSS grew {} KiB",
        rss_after.saturating_sub(rss_before)
    );
}

#[tokio::test]
async fn killing_twice_runs_one_kill_sequence() {
    let spec = fake(&["ignore-term", "30"]).kill_grace(Duration::from_millis(200));
    let running = process::spawn(spec).unwrap();
    let handle = running.kill_handle();
    let copy = handle.clone();
    wait_for_ready(&running).await;
    assert!(handle.kill(KillReason::User));
    assert!(!handle.kill(KillReason::User));
    assert!(!copy.kill(KillReason::Timeout));
    assert!(!running.kill(KillReason::User));
    assert_eq!(copy.requested(), Some(KillReason::User));
    let outcome = running.wait().await;
    assert!(
        !handle.kill(KillReason::User),
        "killing a finished process does nothing"
    );
    assert_eq!(signal_names(&outcome), vec!["SIGTERM", "SIGKILL"]);
    assert_eq!(count_notes(&outcome, "sent SIGTERM"), 1);
    assert_eq!(outcome.killed_by, Some(KillReason::User));
    assert!(!outcome.timed_out);
    assert_eq!(outcome.exit.signal_name(), Some("SIGKILL"));
    assert_group_gone(outcome.pgid, GONE_WITHIN);
}

async fn wait_for_ready(running: &process::RunningProcess) {
    wait_for_ready_lines(running, 1).await;
}

async fn wait_for_ready_lines(running: &process::RunningProcess, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(5);
    let ready_lines = || {
        let text = running.output_snapshot().stdout_text();
        text.lines().filter(|line| *line == "ready").count()
    };
    while ready_lines() < count {
        assert!(
            Instant::now() < deadline,
            "fewer than {count} `ready` lines"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn timeout_and_kill_at_once_give_one_note_one_kill_and_one_reap() {
    for _ in 0..5 {
        let timeout = Duration::from_millis(200);
        let spec = fake(&["sleep", "30000"]).timeout(Some(timeout));
        let running = process::spawn(spec).unwrap();
        let handle = running.kill_handle();
        let pid = running.pid() as i32;
        let killer = tokio::spawn(async move {
            tokio::time::sleep(timeout).await;
            handle.kill(KillReason::User)
        });
        let outcome = running.wait().await;
        let _ = killer.await;
        assert_eq!(
            count_notes(&outcome, "sent SIGTERM"),
            1,
            "{:?}",
            outcome.notes
        );
        assert_eq!(outcome.notes.len(), 1, "{:?}", outcome.notes);
        assert_eq!(signal_names(&outcome), vec!["SIGTERM"]);
        assert!(matches!(
            outcome.killed_by,
            Some(KillReason::Timeout | KillReason::User)
        ));
        assert_eq!(
            outcome.timed_out,
            outcome.killed_by == Some(KillReason::Timeout)
        );
        assert_eq!(outcome.exit.signal_name(), Some("SIGTERM"));
        // Reaped exactly once: the pid is neither running nor a zombie of ours.
        assert!(!pid_alive(pid));
        assert!(!zombie_children().contains(&pid));
        assert_group_gone(outcome.pgid, GONE_WITHIN);
    }
}

#[tokio::test]
async fn spawn_failures_name_the_program_and_the_errno() {
    let missing =
        process::spawn(ProcessSpec::new("/nonexistent/clawdeck-no-such-tool")).unwrap_err();
    assert!(
        matches!(missing, SpawnError::NotFound { .. }),
        "{missing:?}"
    );
    assert_eq!(
        missing.to_string(),
        "Command not found: /nonexistent/clawdeck-no-such-tool"
    );

    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("not-executable.sh");
    std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
    let denied = process::spawn(ProcessSpec::new(script.to_string_lossy())).unwrap_err();
    assert!(
        matches!(denied, SpawnError::PermissionDenied { .. }),
        "{denied:?}"
    );
    assert!(
        denied
            .to_string()
            .starts_with("Command not executable (permission denied): ")
    );
    assert!(denied.to_string().ends_with("not-executable.sh"));

    let bad_cwd =
        process::spawn(ProcessSpec::new("/bin/sh").cwd(dir.path().join("missing"))).unwrap_err();
    assert_eq!(bad_cwd.kind(), "bad_cwd");
    assert!(matches!(
        process::spawn(ProcessSpec::new("  ")),
        Err(SpawnError::EmptyProgram)
    ));
}

#[tokio::test]
async fn no_zombies_after_200_short_children() {
    let mut pids = Vec::new();
    for batch in 0..10 {
        let mut running = Vec::new();
        for i in 0..20 {
            let code = ((batch * 20 + i) % 7).to_string();
            running.push(process::spawn(fake(&["exit", &code])).unwrap());
        }
        for (i, child) in running.iter().enumerate() {
            let outcome = child.wait().await;
            assert_eq!(
                outcome.exit,
                ExitKind::Code {
                    code: ((batch * 20 + i) % 7) as i32
                }
            );
            pids.push(outcome.pid as i32);
        }
    }
    assert_eq!(pids.len(), 200);
    let zombies = zombie_children();
    let ours: Vec<&i32> = pids.iter().filter(|pid| zombies.contains(pid)).collect();
    assert!(ours.is_empty(), "unreaped children: {ours:?}");
    assert!(pids.iter().all(|pid| !pid_alive(*pid)));
}

#[tokio::test]
async fn exit_by_signal_is_reported_by_name() {
    let outcome = run(fake(&["signal", "SEGV"])).await;
    assert_eq!(
        outcome.exit,
        ExitKind::Signal {
            number: 11,
            name: "SIGSEGV".to_string()
        }
    );
    assert_eq!(outcome.summary(), "killed by signal SIGSEGV");
    assert!(!outcome.success());
    assert_eq!(outcome.killed_by, None);
}

#[tokio::test]
async fn exit_codes_are_reported() {
    let outcome = run(fake(&["exit", "3"])).await;
    assert_eq!(outcome.exit, ExitKind::Code { code: 3 });
    assert_eq!(outcome.summary(), "exited with code 3");
    assert!(!outcome.success());
}

// Multi-threaded: the supervisor task must keep running while this thread polls /proc.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_handle_kills_the_whole_tree() {
    let spec = fake(&["term-ignoring-tree", "2", "30"]).kill_grace(Duration::from_millis(200));
    let running = process::spawn(spec).unwrap();
    // Each grandchild prints its own `ready`; the parent prints its `ready` after both
    // `child` lines, so three of them mean every pid is printed.
    wait_for_ready_lines(&running, 3).await;
    let children = printed_pids(&running.output_snapshot().stdout_text(), "child ");
    assert_eq!(children.len(), 2);
    let pgid = running.pgid();
    drop(running);
    assert_group_gone(pgid, Duration::from_secs(3));
    for child in children {
        assert_pid_gone(child, GONE_WITHIN);
    }
}

#[tokio::test]
async fn a_cancelled_token_kills_with_reason_cancelled() {
    let cancel = CancellationToken::new();
    let running = process::spawn(fake(&["sleep", "30000"]).cancel(cancel.clone())).unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    cancel.cancel();
    let outcome = running.wait().await;
    assert_eq!(outcome.killed_by, Some(KillReason::Cancelled));
    assert_eq!(outcome.exit.signal_name(), Some("SIGTERM"));
    assert_eq!(count_notes(&outcome, "cancelled: sent SIGTERM"), 1);
    assert_group_gone(outcome.pgid, GONE_WITHIN);
}

#[tokio::test]
async fn stdin_is_null_by_default_and_can_be_piped() {
    let outcome = run(fake(&["cat"]).timeout(Some(Duration::from_secs(5)))).await;
    assert_eq!(outcome.exit, ExitKind::Code { code: 0 });
    assert!(!outcome.timed_out, "cat must see end-of-file on /dev/null");
    assert_eq!(outcome.output.stdout_bytes, 0);

    let mut running = process::spawn(fake(&["cat"]).stdin(StdinMode::Piped)).unwrap();
    let mut stdin = running.take_stdin().unwrap();
    use tokio::io::AsyncWriteExt;
    stdin.write_all(b"hello\nworld").await.unwrap();
    drop(stdin);
    let outcome = running.wait().await;
    assert_eq!(outcome.output.stdout_text(), "hello\nworld");
}

#[tokio::test]
async fn env_clear_env_and_cwd_are_applied() {
    let dir = tempfile::tempdir().unwrap();
    let spec = ProcessSpec::new("/bin/sh")
        .args(["-c", "echo \"foo=$FOO home=${HOME:-unset}\"; pwd"])
        .clear_env(true)
        .env("FOO", "bar")
        .cwd(dir.path());
    let outcome = run(spec).await;
    let canonical = dir.path().canonicalize().unwrap();
    assert_eq!(
        outcome.output.stdout_text(),
        format!("foo=bar home=unset\n{}\n", canonical.display())
    );
}

#[tokio::test]
async fn pollers_read_new_lines_by_number() {
    let running = process::spawn(fake(&["lines", "4", "out", "150"])).unwrap();
    let mut next = 0;
    let mut seen = Vec::new();
    loop {
        let finished = running.is_finished();
        let fresh = running.output_since(next);
        for line in &fresh.lines {
            assert_eq!(line.number, next);
            next += 1;
            seen.push(line.text.clone());
        }
        if finished {
            break;
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    assert_eq!(seen, vec!["out 0", "out 1", "out 2", "out 3"]);
    assert_eq!(running.next_line_number(), 4);
    let outcome = running.wait().await;
    assert_group_gone(outcome.pgid, GONE_WITHIN);
}

#[tokio::test]
async fn the_child_leads_its_own_process_group() {
    let outcome = run(fake(&["pid"])).await;
    let text = outcome.output.stdout_text();
    assert_eq!(
        text.trim(),
        format!("pid {} pgid {}", outcome.pid, outcome.pid)
    );
    assert_eq!(outcome.pgid, outcome.pid as i32);
}

#[tokio::test]
async fn leftover_group_members_are_killed_when_the_leader_exits() {
    // The grandchild holds no pipe (its output goes to /dev/null), so the drain finishes at
    // once; it must still not outlive the run.
    let spec = ProcessSpec::new("/bin/sh").args([
        "-c".to_string(),
        format!(
            "{} sleep 30000 >/dev/null 2>&1 & echo started $!",
            fake_cli_str()
        ),
    ]);
    let outcome = run(spec).await;
    let leftover = printed_pids(&outcome.output.stdout_text(), "started ");
    assert_eq!(leftover.len(), 1);
    assert_pid_gone(leftover[0], GONE_WITHIN);
    assert_eq!(
        count_notes(&outcome, "killed leftover processes"),
        1,
        "{:?}",
        outcome.notes
    );
}

#[tokio::test]
async fn killing_a_finished_process_does_nothing() {
    let running = process::spawn(fake(&["exit", "0"])).unwrap();
    let handle = running.kill_handle();
    let outcome = running.wait().await;
    assert!(!handle.kill(KillReason::User), "nothing left to kill");
    assert!(!running.kill(KillReason::User));
    assert!(outcome.signals.is_empty());
    assert_eq!(outcome.killed_by, None);
    assert!(running.wait().await.success(), "wait can be called again");
}

#[tokio::test]
async fn a_kill_while_draining_stops_waiting_for_the_pipes() {
    let spec = fake(&["grandchild", "30"]).drain_grace(Duration::from_secs(30));
    let running = process::spawn(spec).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !running
        .output_snapshot()
        .stdout_text()
        .contains("grandchild ")
    {
        assert!(Instant::now() < deadline, "no grandchild pid printed");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Let the leader exit; the grandchild keeps the pipes open.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!running.is_finished());
    let started = Instant::now();
    assert!(running.kill(KillReason::User));
    let outcome = running.wait().await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(outcome.exit, ExitKind::Code { code: 0 });
    assert_eq!(outcome.killed_by, Some(KillReason::User));
    assert_eq!(
        count_notes(
            &outcome,
            "killed on request while waiting for the output pipes after the process exited: sent SIGKILL"
        ),
        1,
        "{:?}",
        outcome.notes
    );
    let grandchild = printed_pids(&outcome.output.stdout_text(), "grandchild ");
    assert_pid_gone(grandchild[0], GONE_WITHIN);
    assert_group_gone(outcome.pgid, GONE_WITHIN);
}

fn shell(script: &str) -> ProcessSpec {
    ProcessSpec::new("sh").args(["-c", script])
}

/// Collects every chunk through `on_chunk`.
fn collect_chunks(spec: ProcessSpec) -> (ProcessSpec, Arc<Mutex<Vec<OutputChunk>>>) {
    let chunks: Arc<Mutex<Vec<OutputChunk>>> = Arc::default();
    let sink = Arc::clone(&chunks);
    let spec = spec.on_chunk(move |chunk| sink.lock().unwrap().push(chunk.clone()));
    (spec, chunks)
}

#[tokio::test]
async fn live_chunks_carry_the_exact_bytes_while_retained_lines_are_text() {
    // Invalid UTF-8, a character split between two writes, and a cut sequence at the end.
    let (spec, all) = collect_chunks(shell(
        "printf 'bad \\377\\376 ok\\n\\342\\202'; sleep 0.2; printf '\\254 euro\\n\\342'",
    ));
    let outcome = run(spec).await;
    let chunks = all.lock().unwrap().clone();
    let joined: Vec<u8> = chunks.iter().flat_map(|c| c.bytes.to_vec()).collect();
    assert_eq!(joined, b"bad \xff\xfe ok\n\xe2\x82\xac euro\n\xe2");
    // No chunk ends inside the euro sign, so each decodes as the whole does.
    let text: String = chunks.iter().map(|c| c.text()).collect();
    assert_eq!(text, "bad \u{fffd}\u{fffd} ok\n\u{20ac} euro\n\u{fffd}");
    let json = serde_json::to_value(&chunks[0]).unwrap();
    assert!(json["text"].as_str().unwrap().starts_with("bad \u{fffd}"));
    assert_eq!(outcome.output.lines[0].text, "bad \u{fffd}\u{fffd} ok");
}

#[tokio::test]
async fn a_partial_line_reaches_subscribers_before_its_newline() {
    let (spec, all) = collect_chunks(shell(
        "sleep 0.3; printf 'progress 10%%\\rprogress 50%%'; sleep 1.5; echo ' done'; printf tail",
    ));
    let begun = Instant::now();
    let running = process::spawn(spec).unwrap();
    let mut subscriber = running.subscribe();
    let mut seen = String::new();
    while !seen.contains("progress 50%") {
        let chunk = tokio::time::timeout(Duration::from_secs(5), subscriber.recv())
            .await
            .expect("the partial line arrives while the child sleeps")
            .unwrap();
        seen.push_str(&chunk.text());
    }
    // Seen while the child sleeps before its newline; nothing is retained yet.
    assert!(
        begun.elapsed() < Duration::from_millis(1500),
        "{:?}",
        begun.elapsed()
    );
    assert!(!running.is_finished());
    assert_eq!(seen, "progress 10%\rprogress 50%");
    assert!(running.output_snapshot().lines.is_empty());

    let outcome = running.wait().await;
    // The retained output is line by line, exactly as before: no newline added, nothing twice.
    let output = &outcome.output;
    let lines: Vec<(&str, LineEnd)> = output
        .lines
        .iter()
        .map(|line| (line.text.as_str(), line.end))
        .collect();
    assert_eq!(
        lines,
        vec![
            ("progress 10%\rprogress 50% done", LineEnd::Newline),
            ("tail", LineEnd::Eof)
        ]
    );
    assert_eq!(
        output.combined_text(),
        "progress 10%\rprogress 50% done\ntail"
    );
    assert_eq!(output.stdout_text(), output.combined_text());
    assert_eq!(output.stdout_lines, 2);
    // Live: the same bytes, in pieces; the pieces after the first continue its line.
    let chunks = all.lock().unwrap().clone();
    let joined: String = chunks.iter().map(|chunk| chunk.text()).collect();
    assert_eq!(joined, output.stdout_text());
    assert_eq!(chunks[0].text(), "progress 10%\rprogress 50%");
    assert!(!chunks[0].continues_line && !chunks[0].ends_line());
    assert!(chunks[1].continues_line);
    assert!(chunks[1].text().starts_with(" done\n"), "{chunks:?}");
    assert!(
        chunks[1].elapsed >= Duration::from_millis(1700),
        "{:?}",
        chunks[1].elapsed
    );
    assert_group_gone(outcome.pgid, GONE_WITHIN);
}

#[tokio::test]
async fn a_prompt_is_live_while_the_retained_output_stays_line_by_line() {
    let (spec, all) = collect_chunks(shell(
        "printf 'ask: '; sleep 0.2; echo err >&2; sleep 0.2; echo answer",
    ));
    let outcome = run(spec).await;
    let chunks = all.lock().unwrap().clone();
    let live: Vec<(StdStream, &[u8], bool)> = chunks
        .iter()
        .map(|chunk| (chunk.stream, &chunk.bytes[..], chunk.continues_line))
        .collect();
    assert_eq!(
        live,
        vec![
            (StdStream::Stdout, &b"ask: "[..], false),
            (StdStream::Stderr, &b"err\n"[..], false),
            (StdStream::Stdout, &b"answer\n"[..], true),
        ]
    );
    // Retained lines keep their numbering: the stderr line completed first.
    let output = &outcome.output;
    assert_eq!(output.combined_text(), "err\nask: answer\n");
    let numbered: Vec<(u64, StdStream)> = output
        .lines
        .iter()
        .map(|line| (line.number, line.stream))
        .collect();
    assert_eq!(
        numbered,
        vec![(0, StdStream::Stderr), (1, StdStream::Stdout)]
    );
    let since = running_free_output_since(output, 1);
    assert_eq!(since, "ask: answer\n");
}

/// The retained text from line `number` on (what `output_since` serves pollers).
fn running_free_output_since(
    output: &clawdeck_core::process::RetainedOutput,
    number: u64,
) -> String {
    let mut text = String::new();
    for line in output.lines.iter().filter(|line| line.number >= number) {
        text.push_str(&line.text);
        if line.end == LineEnd::Newline {
            text.push('\n');
        }
    }
    text
}

#[tokio::test]
async fn bytes_written_one_at_a_time_are_gathered_into_few_chunks() {
    // 100 single-byte writes, a few ms apart (a `sleep` process each), then the newline.
    let (spec, all) = collect_chunks(shell(
        "i=0; while [ $i -lt 100 ]; do printf x; sleep 0.002; i=$((i+1)); done; echo",
    ));
    let outcome = run(spec).await;
    let chunks = all.lock().unwrap().clone();
    let joined: String = chunks.iter().map(|chunk| chunk.text()).collect();
    assert_eq!(joined, format!("{}\n", "x".repeat(100)));
    assert_eq!(outcome.output.stdout_text(), joined);
    assert!(chunks.len() >= 2, "pieces flow while the line grows");
    // At most one partial chunk per 50 ms (the loop runs for a few hundred ms), not one per byte.
    let expected_max = 2 + (outcome.duration.as_millis() / 50) as usize;
    assert!(
        chunks.len() <= expected_max.min(50),
        "{} chunks in {:?}",
        chunks.len(),
        outcome.duration
    );
    assert!(chunks[1..].iter().all(|chunk| chunk.continues_line));
}

#[tokio::test]
async fn a_program_still_open_for_writing_a_moment_is_started_once_it_is_closed() {
    // A program just written (an install, an update) can be busy for a moment; with the
    // writer's handle open the kernel refuses to run it ("Text file busy").
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("just-written");
    let mut writer = std::fs::File::create(&script).unwrap();
    writer.write_all(b"#!/bin/sh\necho started\n").unwrap();
    writer.flush().unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let closer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(60));
        drop(writer);
    });
    let outcome = run(ProcessSpec::new(script.display().to_string())).await;
    closer.join().unwrap();
    assert!(outcome.success(), "{outcome:?}");
    assert!(outcome.output.combined_text().contains("started"));
    // Busy for good: the error says so, after the retries.
    let held = std::fs::OpenOptions::new()
        .write(true)
        .open(&script)
        .unwrap();
    let err = process::spawn(ProcessSpec::new(script.display().to_string())).unwrap_err();
    assert!(err.to_string().to_lowercase().contains("busy"), "{err}");
    drop(held);
}
