//! Process supervisor benchmarks (`cargo bench --bench process`), each against a baseline
//! measured in the same run:
//! (a) a child writing 200 MB through the supervisor vs reading the same child's pipe raw
//!     (target ratio >= 0.7), and peak memory (VmHWM of a fresh process) for 20 MB vs 200 MB;
//! (c) kill latency of a SIGTERM-ignoring tree: timeout + grace + overhead (target < 100 ms).

#[path = "../tests/support/mod.rs"]
mod support;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clawdeck_core::process::{self, ProcessSpec};

const TOTAL: usize = 200 * 1024 * 1024;
const ROUNDS: usize = 7;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(index) = args.iter().position(|arg| arg == "--mem-probe") {
        let bytes: usize = args
            .get(index + 1)
            .and_then(|text| text.parse().ok())
            .unwrap_or(TOTAL);
        mem_probe(bytes);
        return;
    }
    let fake = support::fake_cli_str();
    println!("process supervisor benchmarks (fake CLI: {fake})");
    throughput(&fake, 100);
    throughput(&fake, 4096);
    peak_memory();
    kill_latency();
}

fn runtime() -> tokio::runtime::Runtime {
    match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => panic!("tokio runtime: {err}"),
    }
}

fn flood_args(bytes: usize, line_len: usize) -> Vec<String> {
    vec![
        "flood".to_string(),
        bytes.to_string(),
        "out".to_string(),
        line_len.to_string(),
    ]
}

/// Read the child's stdout with plain blocking reads, discarding it: the fastest a reader can be.
fn raw_read(fake: &str, line_len: usize) -> Duration {
    let started = Instant::now();
    let mut child = match Command::new(fake)
        .args(flood_args(TOTAL, line_len))
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(err) => panic!("spawn {fake}: {err}"),
    };
    let mut stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0usize;
    loop {
        match stdout.read(&mut buf) {
            Ok(0) => break,
            Ok(read) => total += read,
            Err(err) => panic!("read: {err}"),
        }
    }
    let _ = child.wait();
    assert_eq!(total, TOTAL);
    started.elapsed()
}

fn supervised(runtime: &tokio::runtime::Runtime, fake: &str, line_len: usize) -> Duration {
    runtime.block_on(async {
        let started = Instant::now();
        let running = match process::spawn(ProcessSpec::new(fake).args(flood_args(TOTAL, line_len)))
        {
            Ok(running) => running,
            Err(err) => panic!("spawn: {err}"),
        };
        let outcome = running.wait().await;
        let elapsed = started.elapsed();
        assert_eq!(outcome.output.stdout_bytes, TOTAL as u64);
        assert!(outcome.success());
        elapsed
    })
}

fn mb_per_s(duration: Duration) -> f64 {
    TOTAL as f64 / (1024.0 * 1024.0) / duration.as_secs_f64()
}

fn throughput(fake: &str, line_len: usize) {
    let runtime = runtime();
    let mut raw = Vec::new();
    let mut sup = Vec::new();
    // Alternate, and compare each supervised run with the raw run just before it: other load on
    // the machine then hits both sides of a ratio alike.
    let mut ratios = Vec::new();
    let (mut raw_cpu, mut sup_cpu) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let cpu_before = process_cpu();
        let raw_run = raw_read(fake, line_len);
        let cpu_between = process_cpu();
        let sup_run = supervised(&runtime, fake, line_len);
        let cpu_after = process_cpu();
        raw_cpu.push(cpu_between - cpu_before);
        sup_cpu.push(cpu_after - cpu_between);
        ratios.push(raw_run.as_secs_f64() / sup_run.as_secs_f64());
        raw.push(raw_run);
        sup.push(sup_run);
    }
    raw_cpu.sort();
    sup_cpu.sort();
    let (raw_cpu, sup_cpu) = (raw_cpu[ROUNDS / 2], sup_cpu[ROUNDS / 2]);
    ratios.sort_by(f64::total_cmp);
    let ratio = ratios[ROUNDS / 2];
    let best_ratio = raw.iter().min().map_or(0.0, Duration::as_secs_f64)
        / sup.iter().min().map_or(1.0, Duration::as_secs_f64);
    raw.sort();
    sup.sort();
    let (raw_median, sup_median) = (raw[ROUNDS / 2], sup[ROUNDS / 2]);
    println!(
        "(a) 200 MB in {line_len}-byte lines, {ROUNDS} alternating rounds: raw pipe median {:.0} ms ({:.0} MB/s), supervisor median {:.0} ms ({:.0} MB/s); throughput ratio (median of per-round ratios) {:.2}, best-of ratio {:.2} (target >= 0.70) {}",
        raw_median.as_secs_f64() * 1000.0,
        mb_per_s(raw_median),
        sup_median.as_secs_f64() * 1000.0,
        mb_per_s(sup_median),
        ratio,
        best_ratio,
        if ratio >= 0.7 { "PASS" } else { "MISS" }
    );
    println!(
        "    reading CPU per 200 MB (this process, user+sys; load-independent): raw {:.1} ms, supervisor {:.1} ms; ratio {:.2}",
        raw_cpu.as_secs_f64() * 1000.0,
        sup_cpu.as_secs_f64() * 1000.0,
        raw_cpu.as_secs_f64() / sup_cpu.as_secs_f64()
    );
}

/// User + system CPU time of this process so far (all threads; not the children).
fn process_cpu() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given; it is zero-initialised either way.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let micros = |time: libc::timeval| time.tv_sec as u64 * 1_000_000 + time.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

/// Child mode: run one supervised flood and print this process's VmHWM.
fn mem_probe(bytes: usize) {
    let fake = support::fake_cli_str();
    let runtime = runtime();
    runtime.block_on(async {
        let running = match process::spawn(ProcessSpec::new(fake).args(flood_args(bytes, 100))) {
            Ok(running) => running,
            Err(err) => panic!("spawn: {err}"),
        };
        let outcome = running.wait().await;
        assert_eq!(outcome.output.stdout_bytes, bytes as u64);
    });
    println!("VmHWM {}", support::proc_status_kib("VmHWM").unwrap_or(0));
}

fn probe_hwm(bytes: usize) -> u64 {
    let exe = std::env::current_exe().unwrap_or_else(|err| panic!("current_exe: {err}"));
    let output = match Command::new(exe)
        .arg("--mem-probe")
        .arg(bytes.to_string())
        .output()
    {
        Ok(output) => output,
        Err(err) => panic!("memory probe: {err}"),
    };
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| line.strip_prefix("VmHWM ")?.trim().parse().ok())
        .unwrap_or_else(|| panic!("memory probe printed no VmHWM: {text}"))
}

fn peak_memory() {
    let small = probe_hwm(20 * 1024 * 1024);
    let large = probe_hwm(TOTAL);
    let growth = large as f64 / small as f64;
    println!(
        "(a) peak memory (VmHWM of a fresh process, default limits): 20 MB output {} KiB, 200 MB output {} KiB; ratio {:.2} (10x the output) {}",
        small,
        large,
        growth,
        if growth < 1.25 {
            "PASS: independent of output size"
        } else {
            "MISS"
        }
    );
}

fn kill_latency() {
    let runtime = runtime();
    let fake = support::fake_cli_str();
    let timeout = Duration::from_millis(200);
    let grace = Duration::from_millis(300);
    let mut overheads = Vec::new();
    for _ in 0..5 {
        let overhead = runtime.block_on(async {
            let spec = ProcessSpec::new(fake.clone())
                .args(["term-ignoring-tree", "3", "60"])
                .timeout(Some(timeout))
                .kill_grace(grace);
            let started = Instant::now();
            let running = match process::spawn(spec) {
                Ok(running) => running,
                Err(err) => panic!("spawn: {err}"),
            };
            let outcome = running.wait().await;
            let elapsed = started.elapsed();
            assert!(outcome.timed_out);
            assert_eq!(outcome.exit.signal_name(), Some("SIGKILL"));
            assert!(support::group_gone(outcome.pgid));
            elapsed.saturating_sub(timeout + grace)
        });
        overheads.push(overhead);
    }
    overheads.sort();
    let worst = overheads[overheads.len() - 1];
    println!(
        "(c) kill latency, SIGTERM-ignoring tree of 4: timeout 200 ms + grace 300 ms + overhead median {:.1} ms, worst {:.1} ms (target < 100 ms) {}",
        overheads[overheads.len() / 2].as_secs_f64() * 1000.0,
        worst.as_secs_f64() * 1000.0,
        if worst < Duration::from_millis(100) {
            "PASS"
        } else {
            "MISS"
        }
    );
}
