//! A private SSH server on loopback for the fidelity cases that sandbox tools with OpenClaw's
//! SSH backend (Docker, the default backend, needs a daemon CI machines do not run). Keys,
//! config and the sandboxes' workspace root live in a temporary directory; sshd runs in the
//! foreground as a child and is killed when this is dropped.

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct SshTarget {
    dir: tempfile::TempDir,
    port: u16,
    user: String,
    sshd: Option<Child>,
}

/// Where this machine's sshd is, if it has one.
fn find_sshd() -> Option<PathBuf> {
    ["/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

fn keygen(path: &Path) -> Result<(), String> {
    let status = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("ssh-keygen: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| format!("ssh-keygen exited with {status}"))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl SshTarget {
    /// Starts sshd; `Err` says why it could not (no sshd, keygen failed, it never listened).
    pub fn start() -> Result<Self, String> {
        let sshd = find_sshd().ok_or("no sshd on this machine (Debian: openssh-server)")?;
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let d = dir.path();
        keygen(&d.join("host_key"))?;
        keygen(&d.join("client_key"))?;
        std::fs::copy(d.join("client_key.pub"), d.join("authorized_keys"))
            .map_err(|e| e.to_string())?;
        let user = String::from_utf8_lossy(
            &Command::new("id")
                .arg("-un")
                .output()
                .map_err(|e| e.to_string())?
                .stdout,
        )
        .trim()
        .to_string();
        // Root's sshd wants its privilege-separation directory.
        if user == "root" {
            let _ = std::fs::create_dir_all("/run/sshd");
        }
        let port = free_port();
        let config = format!(
            "Port {port}\nListenAddress 127.0.0.1\nHostKey {host}\nAuthorizedKeysFile {keys}\n\
             PasswordAuthentication no\nKbdInteractiveAuthentication no\nPubkeyAuthentication yes\n\
             PermitRootLogin prohibit-password\nStrictModes no\nUsePAM no\nPidFile {pid}\n",
            host = d.join("host_key").display(),
            keys = d.join("authorized_keys").display(),
            pid = d.join("sshd.pid").display(),
        );
        std::fs::write(d.join("sshd_config"), config).map_err(|e| e.to_string())?;
        let log = std::fs::File::create(d.join("sshd.log")).map_err(|e| e.to_string())?;
        let child = Command::new(&sshd)
            .process_group(0)
            .arg("-D")
            .arg("-e")
            .arg("-f")
            .arg(d.join("sshd_config"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("{}: {e}", sshd.display()))?;
        let host_key =
            std::fs::read_to_string(d.join("host_key.pub")).map_err(|e| e.to_string())?;
        let host_key: Vec<&str> = host_key.split_whitespace().take(2).collect();
        std::fs::write(
            d.join("known_hosts"),
            format!("[127.0.0.1]:{port} {}\n", host_key.join(" ")),
        )
        .map_err(|e| e.to_string())?;
        let mut target = Self {
            dir,
            port,
            user,
            sshd: Some(child),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline
                || target
                    .sshd
                    .as_mut()
                    .is_some_and(|c| c.try_wait().ok().flatten().is_some())
            {
                let log =
                    std::fs::read_to_string(target.dir.path().join("sshd.log")).unwrap_or_default();
                return Err(format!("sshd did not listen on 127.0.0.1:{port}: {log}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        target.check_login()?;
        Ok(target)
    }

    /// One login with the client key, as OpenClaw will make them.
    fn check_login(&self) -> Result<(), String> {
        let out = Command::new("ssh")
            .args(self.ssh_args())
            .arg("echo ready")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("ssh: {e}"))?;
        if String::from_utf8_lossy(&out.stdout).trim() == "ready" {
            Ok(())
        } else {
            Err(format!(
                "ssh login to the private sshd failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    fn ssh_args(&self) -> Vec<String> {
        let d = self.dir.path();
        vec![
            "-p".into(),
            self.port.to_string(),
            "-i".into(),
            d.join("client_key").display().to_string(),
            "-o".into(),
            format!("UserKnownHostsFile={}", d.join("known_hosts").display()),
            "-o".into(),
            "StrictHostKeyChecking=yes".into(),
            "-o".into(),
            "BatchMode=yes".into(),
            format!("{}@127.0.0.1", self.user),
        ]
    }

    /// The `@SSH_*@` placeholders of a case's config, filled in.
    pub fn fill(&self, text: &str) -> String {
        let d = self.dir.path();
        text.replace(
            "@SSH_TARGET@",
            &format!("{}@127.0.0.1:{}", self.user, self.port),
        )
        .replace(
            "@SSH_IDENTITY@",
            &d.join("client_key").display().to_string(),
        )
        .replace(
            "@SSH_KNOWN_HOSTS@",
            &d.join("known_hosts").display().to_string(),
        )
        .replace(
            "@SSH_WORKSPACES@",
            &d.join("workspaces").display().to_string(),
        )
    }

    /// Logins sshd accepted besides the one `start` checks with.
    pub fn logins_since_start(&self) -> usize {
        std::fs::read_to_string(self.dir.path().join("sshd.log"))
            .unwrap_or_default()
            .matches("Accepted publickey")
            .count()
            .saturating_sub(1)
    }
}

impl Drop for SshTarget {
    fn drop(&mut self) {
        // The whole group: sshd's per-login children go with it.
        if let Some(mut child) = self.sshd.take() {
            let group = nix::unistd::Pid::from_raw(child.id() as i32);
            let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
            let _ = child.wait();
        }
    }
}
