//! Console benchmarks, each printed with a baseline measured in the same run:
//! 1. Router view render at 200×60 with 1,000,000 retained lines (target < 2 ms per frame),
//!    against rendering every line (a Paragraph of the whole buffer, scrolled to the bottom).
//! 2. Key press → next frame while a child floods output through the real RouterService
//!    (target median < 50 ms), against the same with no output.
//! 3. Idle: frames drawn over 2 s of idle (target 0) and CPU time used, against a bare sleep.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use clawdeck_tui::bench;

const LINES: usize = 1_000_000;

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bench_render() {
    let figures = bench::router_view_render(LINES, 500).expect("router view render");
    println!("filled {} lines in {:?}", figures.retained, figures.fill);
    let frames = figures.frames.len();
    let mut times = figures.frames;
    let mut base = figures.baseline;
    let mean = times.iter().sum::<Duration>() / frames as u32;
    let med = median(&mut times);
    let base_med = median(&mut base);
    println!(
        "router view render 200x60, {LINES} lines retained: mean {:.3} ms, median {:.3} ms per frame (target < 2 ms) | \
         baseline rendering every line: {:.1} ms | {:.0}x faster",
        mean.as_secs_f64() * 1e3,
        med.as_secs_f64() * 1e3,
        base_med.as_secs_f64() * 1e3,
        base_med.as_secs_f64() / med.as_secs_f64().max(1e-9)
    );
}

/// Times key → next frame `samples` times on a running App loop; with `flood`, a child writes
/// output as fast as it can through the real router the whole time.
fn key_latency(flood: bool, samples: usize) -> Vec<Duration> {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("flood-openclaw");
    std::fs::write(&script, "#!/bin/sh\nexec yes 'flood: the remote agent prints a lot of output, \x1b[32mfast\x1b[0m, 0123456789'\n")
        .expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    bench::key_to_frame(&script, flood, samples).expect("key to frame")
}

fn bench_key_latency() {
    let mut idle = key_latency(false, 40);
    let mut flood = key_latency(true, 60);
    let idle_med = median(&mut idle);
    let flood_med = median(&mut flood);
    let p90 = flood[flood.len() * 9 / 10];
    println!(
        "key press → next frame while a child floods output: median {:.2} ms, p90 {:.2} ms (target median < 50 ms) | \
         baseline without output: median {:.2} ms | ratio {:.2}",
        flood_med.as_secs_f64() * 1e3,
        p90.as_secs_f64() * 1e3,
        idle_med.as_secs_f64() * 1e3,
        flood_med.as_secs_f64() / idle_med.as_secs_f64().max(1e-9)
    );
}

fn cpu_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn bench_idle() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (frames_idle, cpu_idle, cpu_sleep) = runtime.block_on(async {
        // Baseline: the same runtime doing nothing.
        let c0 = cpu_time();
        tokio::time::sleep(Duration::from_secs(2)).await;
        let cpu_sleep = cpu_time() - c0;

        let (frames_idle, cpu_idle) = bench::idle_console(async {
            let c0 = cpu_time();
            tokio::time::sleep(Duration::from_secs(2)).await;
            cpu_time() - c0
        })
        .await;
        (frames_idle, cpu_idle, cpu_sleep)
    });
    println!(
        "idle for 2 s: {frames_idle} frames drawn (target 0), CPU {:.2} ms | baseline bare runtime sleep: CPU {:.2} ms",
        cpu_idle.as_secs_f64() * 1e3,
        cpu_sleep.as_secs_f64() * 1e3
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a bare word picks one benchmark (render, idle, keys).
    let only = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_default();
    if only.is_empty() || only == "render" {
        bench_render();
    }
    if only.is_empty() || only == "idle" {
        bench_idle();
    }
    if only.is_empty() || only == "keys" {
        bench_key_latency();
    }
}
