// The policy engine builds an explanation per tool and layer; mimalloc keeps those allocations
// cheap (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    clawdeck::cli::main()
}
