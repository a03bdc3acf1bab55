//! A misbehaving command-line program for the process supervisor's tests and benchmarks.
//!
//! `fake_cli <command> [args]`:
//!   lines N [out|err|both] [DELAY_MS]   print N numbered lines, optionally with a delay each
//!   flood BYTES [out|err] [LINE_LEN]    write BYTES as fast as possible in lines of LINE_LEN
//!   long-line BYTES [out|err]           one line of BYTES bytes, then a newline
//!   endless-line [BYTES]                write without ever a newline (BYTES, or forever)
//!   invalid-utf8                        lines with invalid UTF-8 sequences
//!   ignore-term [SECS]                  ignore SIGTERM, print `ready`, sleep (default 60)
//!   exit-on-term CODE [SECS]            exit with CODE on SIGTERM, print `ready`, sleep
//!   grandchild [SECS] [ignore-term]     start a grandchild that keeps stdout open and sleeps,
//!                                       print `grandchild <pid>`, exit 0
//!   term-ignoring-tree N [SECS]         ignore SIGTERM, start N grandchildren that ignore it too
//!                                       (they print `child <pid>`), print `ready`, sleep
//!   signal NAME                         kill itself with SIGNAME (TERM, KILL, SEGV, ABRT, ...)
//!   exit CODE                           exit with CODE
//!   sleep MS                            sleep
//!   pid                                 print own pid and pgid, exit 0
//!   cat                                 copy stdin to stdout

use std::io::{self, Read, Write};
use std::process::{Command, ExitCode};
use std::time::Duration;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("fake_cli: {err}");
            ExitCode::from(101)
        }
    }
}

fn arg<T: std::str::FromStr>(args: &[String], index: usize, default: T) -> Result<T, String> {
    match args.get(index) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| format!("bad argument {index}: {text}")),
    }
}

fn stream(args: &[String], index: usize) -> Box<dyn Write> {
    match args.get(index).map(String::as_str) {
        Some("err") => Box::new(io::stderr().lock()),
        _ => Box::new(io::stdout().lock()),
    }
}

fn sleep_secs(secs: u64) {
    std::thread::sleep(Duration::from_secs(secs));
}

fn ignore_sigterm() {
    // SAFETY: setting a signal disposition to SIG_IGN has no memory effects.
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
}

static mut EXIT_ON_TERM_CODE: i32 = 0;

extern "C" fn exit_on_term(_: libc::c_int) {
    // SAFETY: _exit is async-signal-safe; the code was written before the handler was set.
    unsafe { libc::_exit(EXIT_ON_TERM_CODE) }
}

fn print_ready() -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "ready")?;
    out.flush()
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let command = args.first().map(String::as_str).unwrap_or("");
    let rest = &args[args.len().min(1)..];
    let io_err = |err: io::Error| err.to_string();
    match command {
        "lines" => {
            let count: u64 = arg(rest, 0, 10)?;
            let which = rest.get(1).map(String::as_str).unwrap_or("out");
            let delay: u64 = arg(rest, 2, 0)?;
            for i in 0..count {
                if which == "out" || which == "both" {
                    let mut out = io::stdout().lock();
                    writeln!(out, "out {i}").map_err(io_err)?;
                    out.flush().map_err(io_err)?;
                }
                if which == "err" || which == "both" {
                    eprintln!("err {i}");
                }
                if delay > 0 {
                    std::thread::sleep(Duration::from_millis(delay));
                }
            }
        }
        "flood" => {
            let total: usize = arg(rest, 0, 1_000_000)?;
            let line_len: usize = arg(rest, 2, 100)?;
            let line_len = line_len.max(1);
            let mut out = stream(rest, 1);
            let mut line = vec![b'x'; line_len];
            line[line_len - 1] = b'\n';
            let mut block = Vec::with_capacity(64 * 1024 + line_len);
            while block.len() + line_len <= 64 * 1024 {
                block.extend_from_slice(&line);
            }
            if block.is_empty() {
                block.extend_from_slice(&line);
            }
            let mut left = total;
            while left > 0 {
                let take = left.min(block.len());
                out.write_all(&block[..take]).map_err(io_err)?;
                left -= take;
            }
            out.flush().map_err(io_err)?;
        }
        "long-line" => {
            let total: usize = arg(rest, 0, 10_000_000)?;
            let mut out = stream(rest, 1);
            let block = vec![b'y'; 64 * 1024];
            let mut left = total;
            while left > 0 {
                let take = left.min(block.len());
                out.write_all(&block[..take]).map_err(io_err)?;
                left -= take;
            }
            out.write_all(b"\n").map_err(io_err)?;
            out.flush().map_err(io_err)?;
        }
        "endless-line" => {
            let total: Option<usize> = match rest.first() {
                Some(text) => Some(
                    text.parse()
                        .map_err(|_| format!("bad byte count: {text}"))?,
                ),
                None => None,
            };
            let mut out = io::stdout().lock();
            let block = vec![b'z'; 4096];
            let mut written = 0usize;
            loop {
                if let Some(total) = total
                    && written >= total
                {
                    break;
                }
                let take = total.map_or(block.len(), |total| (total - written).min(block.len()));
                out.write_all(&block[..take]).map_err(io_err)?;
                out.flush().map_err(io_err)?;
                written += take;
                if total.is_none() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
        "invalid-utf8" => {
            let mut out = io::stdout().lock();
            out.write_all(b"ok line\n").map_err(io_err)?;
            out.write_all(b"bad \xff\xfe bytes\n").map_err(io_err)?;
            out.write_all(b"cut \xe2\x82\n").map_err(io_err)?;
            out.write_all("euro \u{20ac}\n".as_bytes())
                .map_err(io_err)?;
            out.write_all(b"tail \xc3").map_err(io_err)?;
            out.flush().map_err(io_err)?;
        }
        "ignore-term" => {
            ignore_sigterm();
            print_ready().map_err(io_err)?;
            sleep_secs(arg(rest, 0, 60)?);
        }
        "exit-on-term" => {
            let code: i32 = arg(rest, 0, 0)?;
            // SAFETY: the handler only calls _exit; the static is written before it is installed.
            unsafe {
                EXIT_ON_TERM_CODE = code;
                libc::signal(
                    libc::SIGTERM,
                    exit_on_term as *const () as libc::sighandler_t,
                );
            }
            print_ready().map_err(io_err)?;
            sleep_secs(arg(rest, 1, 60)?);
        }
        "grandchild" => {
            let secs: u64 = arg(rest, 0, 30)?;
            let ignore = rest.get(1).map(String::as_str) == Some("ignore-term");
            let exe = std::env::current_exe().map_err(io_err)?;
            let mut command = Command::new(exe);
            if ignore {
                command.arg("ignore-term").arg(secs.to_string());
            } else {
                command.arg("sleep").arg((secs * 1000).to_string());
            }
            // stdout and stderr are inherited: the grandchild holds the pipes open.
            let child = command.spawn().map_err(io_err)?;
            let mut out = io::stdout().lock();
            writeln!(out, "grandchild {}", child.id()).map_err(io_err)?;
            out.flush().map_err(io_err)?;
            std::mem::forget(child);
        }
        "term-ignoring-tree" => {
            let count: usize = arg(rest, 0, 3)?;
            let secs: u64 = arg(rest, 1, 60)?;
            ignore_sigterm();
            let exe = std::env::current_exe().map_err(io_err)?;
            for _ in 0..count {
                let child = Command::new(&exe)
                    .arg("ignore-term")
                    .arg(secs.to_string())
                    .spawn()
                    .map_err(io_err)?;
                println!("child {}", child.id());
                std::mem::forget(child);
            }
            print_ready().map_err(io_err)?;
            sleep_secs(secs);
        }
        "signal" => {
            let name = rest.first().map(String::as_str).unwrap_or("TERM");
            let signal = match name.trim_start_matches("SIG") {
                "TERM" => libc::SIGTERM,
                "KILL" => libc::SIGKILL,
                "SEGV" => libc::SIGSEGV,
                "ABRT" => libc::SIGABRT,
                "INT" => libc::SIGINT,
                "HUP" => libc::SIGHUP,
                "USR1" => libc::SIGUSR1,
                other => return Err(format!("unknown signal {other}")),
            };
            // SAFETY: plain syscalls; the default disposition is restored so the signal kills.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
            std::thread::sleep(Duration::from_secs(5));
            return Err("signal did not kill the process".to_string());
        }
        "exit" => {
            let code: u8 = arg(rest, 0, 0)?;
            return Ok(ExitCode::from(code));
        }
        "sleep" => {
            std::thread::sleep(Duration::from_millis(arg(rest, 0, 1000)?));
        }
        "pid" => {
            // SAFETY: getpgrp cannot fail.
            let pgid = unsafe { libc::getpgrp() };
            println!("pid {} pgid {pgid}", std::process::id());
        }
        "cat" => {
            let mut input = Vec::new();
            io::stdin().read_to_end(&mut input).map_err(io_err)?;
            io::stdout().write_all(&input).map_err(io_err)?;
        }
        other => return Err(format!("unknown command {other:?}")),
    }
    Ok(ExitCode::SUCCESS)
}
