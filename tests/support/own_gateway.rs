//! A real OpenClaw gateway + mock LLM of a test's own: ../shared/realclaw/start.sh with a private
//! prefix (its bin/node/openclaw symlinked to an installed release) and free ports, so tests and
//! people sharing the machine never meet on 18789/18080. Stopped (process groups killed) on drop.

#![allow(clippy::expect_used)] // test support: a failed set-up is the test's failure message

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct OwnGateway {
    script_dir: PathBuf,
    prefix: tempfile::TempDir,
    llm_port: u16,
    gw_port: u16,
    config_extra: String,
    /// Extra environment for start.sh (the mock LLM's `MOCK_LLM_DELAY_MS`, say).
    env: Vec<(String, String)>,
    pub url: String,
    pub token: String,
}

pub fn free_port() -> u16 {
    // The tests of one binary run at once: a port the system hands out twice (its listener
    // closed at once) would be one test's mock LLM and another's gateway (seen in CI:
    // EADDRINUSE). So a port goes to one caller only.
    static HANDED_OUT: std::sync::Mutex<std::collections::BTreeSet<u16>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    loop {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free loopback port")
            .port();
        let mut handed_out = HANDED_OUT.lock().unwrap_or_else(|e| e.into_inner());
        if handed_out.insert(port) {
            return port;
        }
    }
}

/// Where the release `OPENCLAW_BIN` points at is installed, and ../shared/realclaw's scripts.
fn available(bin: &Path) -> Option<(PathBuf, PathBuf)> {
    let install = bin.parent()?.parent()?.to_path_buf();
    let script_dir = std::env::var("CLAWDECK_REALCLAW_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realclaw"));
    (script_dir.join("start.sh").is_file() && install.join("openclaw").is_dir())
        .then_some((script_dir, install))
}

impl OwnGateway {
    /// The gateway of `OPENCLAW_BIN`'s release with start.sh's config; None when not installed.
    pub fn start() -> Option<OwnGateway> {
        Self::start_with("")
    }

    /// As [`start`](Self::start), with `config_extra` (top-level JSON5 keys, trailing comma) added
    /// to the config start.sh writes (its `REALCLAW_CONFIG_EXTRA`).
    pub fn start_with(config_extra: &str) -> Option<OwnGateway> {
        let bin = std::env::var("OPENCLAW_BIN")
            .ok()
            .filter(|b| !b.is_empty())?;
        Self::start_release(Path::new(&bin), config_extra)
    }

    /// A gateway of the release whose wrapper is `bin` (e.g. an openclaw@2026.8.2 prefix's
    /// `bin/openclaw`).
    pub fn start_release(bin: &Path, config_extra: &str) -> Option<OwnGateway> {
        Self::start_release_with_env(bin, config_extra, &[])
    }

    /// As [`start_with`](Self::start_with), with `env` given to start.sh (and so to the mock
    /// LLM and the gateway), e.g. `MOCK_LLM_DELAY_MS` for a slowly streamed reply.
    pub fn start_with_env(config_extra: &str, env: &[(&str, &str)]) -> Option<OwnGateway> {
        let bin = std::env::var("OPENCLAW_BIN")
            .ok()
            .filter(|b| !b.is_empty())?;
        Self::start_release_with_env(Path::new(&bin), config_extra, env)
    }

    /// A gateway of the release whose wrapper is `bin`, with `env` given to start.sh.
    pub fn start_release_with_env(
        bin: &Path,
        config_extra: &str,
        env: &[(&str, &str)],
    ) -> Option<OwnGateway> {
        let (script_dir, install) = available(bin)?;
        let prefix = tempfile::tempdir().expect("a temp dir for the gateway prefix");
        for part in ["bin", "node", "openclaw"] {
            std::os::unix::fs::symlink(install.join(part), prefix.path().join(part))
                .expect("symlinking the installed release into the prefix");
        }
        let mut gateway = OwnGateway {
            script_dir,
            prefix,
            llm_port: free_port(),
            gw_port: free_port(),
            config_extra: config_extra.to_string(),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            url: String::new(),
            token: "clawdeck-own-gateway-token".into(),
        };
        gateway.url = gateway.run_start();
        Some(gateway)
    }

    /// Runs start.sh (config, mock LLM, gateway); returns the gateway URL.
    /// Starts it again on the same ports after [`stop`](Self::stop) (start.sh rewrites the
    /// config from the same extras).
    pub fn restart(&self) -> String {
        self.run_start()
    }

    /// Stops the gateway and the mock LLM, waits for both ports to close, and starts both
    /// again with the same home, config and ports; returns the gateway URL.
    pub fn stop_and_restart(&self) -> String {
        self.stop_gateway_only();
        self.stop();
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.llm_port)).is_ok() {
            assert!(
                Instant::now() < deadline,
                "the mock LLM still listens after 10 s"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        self.run_start()
    }

    fn run_start(&self) -> String {
        let out = Command::new("bash")
            .arg(self.script_dir.join("start.sh"))
            .arg("--gateway")
            .arg(self.prefix.path())
            // The gateway is its own: its agents' tools must not reach another gateway that
            // the test's environment names (2026.8.2's exec registers approvals through it).
            .env_remove("OPENCLAW_GATEWAY_URL")
            .env_remove("OPENCLAW_GATEWAY_TOKEN")
            .env("MOCK_LLM_PORT", self.llm_port.to_string())
            .env("REALCLAW_GATEWAY_PORT", self.gw_port.to_string())
            .env("REALCLAW_GATEWAY_TOKEN", &self.token)
            .env("REALCLAW_CONFIG_EXTRA", &self.config_extra)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .output()
            .expect("running start.sh");
        assert!(
            out.status.success(),
            "start.sh: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // start.sh waits for HTTP only; config hot reload and sessions need the gateway ready.
        let deadline = Instant::now() + Duration::from_secs(240);
        while !self.log().contains("[gateway] ready") {
            assert!(
                self.gateway_running(),
                "the gateway exited before it was ready:\n{}",
                self.log()
            );
            assert!(
                Instant::now() < deadline,
                "gateway not ready after 240 s:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(500));
        }
        format!("http://127.0.0.1:{}", self.gw_port)
    }

    /// The gateway process start.sh recorded is alive.
    fn gateway_running(&self) -> bool {
        std::fs::read_to_string(self.prefix.path().join("run/gateway.pid"))
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
            .is_some_and(|pid| {
                nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_ok()
                    && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                        .unwrap_or_default()
                        .contains(") Z ")
            })
    }

    /// Stops the gateway and the mock LLM (their process groups).
    pub fn stop(&self) {
        let _ = Command::new("bash")
            .arg(self.script_dir.join("stop.sh"))
            .arg(self.prefix.path())
            .status();
    }

    /// Stops the gateway alone (its process group, as stop.sh does), leaving the mock LLM for
    /// embedded (`--local`) turns, which OpenClaw refuses while a gateway runs for the state
    /// directory. Waits until its port is closed.
    pub fn stop_gateway_only(&self) {
        let pid_file = self.prefix.path().join("run/gateway.pid");
        let pgid = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
            .map(nix::unistd::Pid::from_raw);
        let signal = |sig| {
            if let Some(pgid) = pgid {
                let _ = nix::sys::signal::killpg(pgid, sig);
            }
        };
        signal(nix::sys::signal::Signal::SIGTERM);
        // A gateway draining its connections may take minutes (its shutdown budget): after
        // 10 s the group is killed.
        let listening = || std::net::TcpStream::connect(("127.0.0.1", self.gw_port)).is_ok();
        let mut deadline = Instant::now() + Duration::from_secs(10);
        let mut killed = false;
        while listening() {
            if Instant::now() > deadline {
                assert!(!killed, "the gateway still listens after SIGKILL");
                signal(nix::sys::signal::Signal::SIGKILL);
                killed = true;
                deadline = Instant::now() + Duration::from_secs(10);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let _ = std::fs::remove_file(&pid_file);
    }

    /// The wrapper that runs this gateway's release with this gateway's home
    /// (`REALCLAW_HOME` must be set to [`home`](Self::home) when calling it).
    pub fn openclaw_bin(&self) -> PathBuf {
        self.prefix.path().join("bin/openclaw")
    }

    /// The isolated HOME the gateway runs with.
    pub fn home(&self) -> PathBuf {
        self.prefix.path().join("home")
    }

    pub fn config_path(&self) -> PathBuf {
        self.home().join(".openclaw/openclaw.json")
    }

    pub fn port(&self) -> u16 {
        self.gw_port
    }

    /// The gateway's log without its colours.
    pub fn log(&self) -> String {
        let text =
            std::fs::read_to_string(self.prefix.path().join("run/gateway.log")).unwrap_or_default();
        regex::Regex::new("\x1b\\[[0-9;]*m")
            .expect("the colour pattern compiles")
            .replace_all(&text, "")
            .into_owned()
    }

    /// The mock LLM's log (its requests when `MOCK_LLM_LOG` was set by the caller's env).
    pub fn mock_log(&self) -> String {
        std::fs::read_to_string(self.prefix.path().join("run/mock_llm.log")).unwrap_or_default()
    }

    /// Waits until the gateway log contains `needle` (a hot reload after a config edit, say).
    pub fn wait_for_log(&self, needle: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if self.log().contains(needle) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        false
    }
}

impl Drop for OwnGateway {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = self.log();
            let lines: Vec<&str> = log.lines().collect();
            eprintln!(
                "--- gateway log (last 60 lines) ---\n{}",
                lines[lines.len().saturating_sub(60)..].join("\n")
            );
        }
        self.stop();
    }
}
