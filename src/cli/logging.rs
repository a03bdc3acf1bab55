//! Diagnostics through `tracing`, off unless asked for: `CLAWDECK_LOG=debug` (or error, warn,
//! info, trace). Headless commands log to stderr; the console owns the screen, so it logs to
//! `CLAWDECK_LOG_FILE` (default `clawdeck.log` in the system temp directory).

use std::str::FromStr;

use tracing::Level;

/// The console's log file and whether `CLAWDECK_LOG_FILE` named it (else `clawdeck.log` in the
/// system temp directory).
pub fn console_log_file() -> (std::path::PathBuf, bool) {
    match std::env::var_os("CLAWDECK_LOG_FILE") {
        Some(named) => (std::path::PathBuf::from(named), true),
        None => (std::env::temp_dir().join("clawdeck.log"), false),
    }
}

/// Installs the subscriber when `CLAWDECK_LOG` names a level; `console` sends logs to a file.
pub fn init(console: bool) {
    let Some(level) = std::env::var("CLAWDECK_LOG")
        .ok()
        .and_then(|v| Level::from_str(v.trim()).ok())
    else {
        return;
    };
    let builder = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_target(true);
    if console {
        let (path, named) = console_log_file();
        // The default sits in the shared temp dir: a link or FIFO planted there is refused.
        let links = if named {
            crate::regular_file::Links::Follow
        } else {
            crate::regular_file::Links::Refuse
        };
        match crate::regular_file::open_append(&path, 0o600, links) {
            Ok(file) => {
                let _ = builder
                    .with_ansi(false)
                    .with_writer(std::sync::Mutex::new(file))
                    .try_init();
            }
            Err(err) => eprintln!("clawdeck: cannot open log file {}: {err}", path.display()),
        }
    } else {
        let _ = builder.with_writer(std::io::stderr).try_init();
    }
}
