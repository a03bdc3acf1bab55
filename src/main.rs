fn main() -> std::process::ExitCode {
    clawdeck::cli::main()
}
