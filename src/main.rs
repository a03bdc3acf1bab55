// The policy engine builds an explanation per tool and layer; mimalloc keeps those allocations
// cheap (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // The watchdog clawdeck starts with its first child is this binary too: it only waits for
    // clawdeck to be gone and ends what it left (see process::descendants).
    if let Some(code) = clawdeck_core::process::descendants::watchdog_main() {
        return code;
    }
    // First, before any thread or child exists: SIGINT, SIGTERM and SIGHUP then take every
    // child tree along, remove temp files, restore the terminal and exit 128 + the signal.
    clawdeck_core::process::stop::install();
    let code = clawdeck::cli::main();
    clawdeck_core::process::stop::finish(code)
}
