//! Connecting to the declared servers and asking each what it offers, all at once, each within
//! its connect timeout. A stdio server runs in its own process group, dies with clawdeck, and is
//! gone (group killed, child reaped) when its listing ends, whatever the outcome.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::AsyncReadExt;
use tokio::process::Command;

use crate::mcp_servers::{DeclaredServer, Launch, ListedServer, ServerLister, ServerOffer};
use crate::sdk_client;

/// How much of a failing server's stderr goes into its error.
const STDERR_TAIL: usize = 2048;
/// How long a listed stdio server may take to exit on its own once its stdin closed.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// The MCP client as the registry's [`ServerLister`]: lists over the SDK, and keeps complete
/// listings for an unchanged `mcp.servers` section, so a config reload that leaves the servers
/// alone does not start them again. One per process, shared by every registry it builds.
#[derive(Default)]
pub struct SdkServerLister {
    kept: Mutex<HashMap<Vec<DeclaredServer>, Arc<Vec<ListedServer>>>>,
}

impl SdkServerLister {
    pub fn shared() -> crate::mcp_servers::ServerListing {
        crate::mcp_servers::ServerListing::By(Arc::new(SdkServerLister::default()))
    }
}

impl ServerLister for SdkServerLister {
    fn list(&self, servers: &[DeclaredServer]) -> Arc<Vec<ListedServer>> {
        let lock = || self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(kept) = lock().get(servers) {
            return Arc::clone(kept);
        }
        let listed = Arc::new(list_on_own_thread(servers.to_vec()));
        // Only complete answers are kept: a server that failed is tried again next time.
        if listed.iter().all(|l| l.outcome.is_ok()) {
            lock().insert(servers.to_vec(), Arc::clone(&listed));
        }
        listed
    }
}

/// Lists on a thread of its own with its own runtime, so callers inside or outside a Tokio
/// runtime can block on it.
fn list_on_own_thread(servers: Vec<DeclaredServer>) -> Vec<ListedServer> {
    let worker = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build();
        match runtime {
            Ok(rt) => rt.block_on(list_all(&servers)),
            Err(e) => servers
                .into_iter()
                .map(|server| ListedServer {
                    server,
                    outcome: Err(format!("no async runtime for the listing: {e}")),
                })
                .collect(),
        }
    });
    worker.join().unwrap_or_default()
}

/// Lists every server concurrently.
pub(crate) async fn list_all(servers: &[DeclaredServer]) -> Vec<ListedServer> {
    let tasks = servers.iter().cloned().map(|server| async move {
        let outcome = list_one(&server).await;
        ListedServer { server, outcome }
    });
    futures_util::future::join_all(tasks).await
}

async fn list_one(server: &DeclaredServer) -> Result<ServerOffer, String> {
    let timeout = server.connect_timeout;
    match &server.launch {
        Launch::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut cmd = Command::new(command);
            cmd.args(args)
                .envs(env)
                // A clawdeck among the servers must not start the servers again (its own
                // config may name this very command).
                .env("CLAWDECK_NO_MCP_SERVERS", "true")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .kill_on_drop(true);
            if let Some(dir) = cwd {
                cmd.current_dir(dir);
            }
            crate::process::in_own_group_dying_with_parent(&mut cmd);
            let mut child = cmd
                .spawn()
                .map_err(|e| format!("could not start `{command}`: {e}"))?;
            let pgid = child.id().map(|id| Pid::from_raw(id as i32));
            // A stop of clawdeck kills the server too; forgotten when the listing ends.
            let _ticket =
                pgid.map(|pgid| crate::process::stop::track_group(pgid.as_raw(), EXIT_GRACE));
            let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
                return Err("the server's pipes could not be opened".to_string());
            };
            let stderr_tail = Arc::new(Mutex::new(Vec::new()));
            if let Some(mut stderr) = child.stderr.take() {
                let tail = Arc::clone(&stderr_tail);
                tokio::spawn(async move {
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = stderr.read(&mut buf).await {
                        if n == 0 {
                            break;
                        }
                        let mut tail = tail.lock().unwrap_or_else(|p| p.into_inner());
                        tail.extend_from_slice(&buf[..n]);
                        let excess = tail.len().saturating_sub(STDERR_TAIL);
                        tail.drain(..excess);
                    }
                });
            }
            let listed =
                tokio::time::timeout(timeout, sdk_client::list_over_streams(stdout, stdin)).await;
            // The SDK closed stdin; a well-behaved server exits now. Whatever it does, its
            // whole group goes.
            let exited = tokio::time::timeout(EXIT_GRACE, child.wait()).await.is_ok();
            if let Some(pgid) = pgid {
                let _ = killpg(pgid, Signal::SIGKILL);
            }
            if !exited {
                let _ = child.wait().await;
            }
            let stderr = {
                let tail = stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
                crate::sanitize::sanitizer::plain_text(&String::from_utf8_lossy(&tail))
                    .trim()
                    .to_string()
            };
            let with_stderr = |message: String| {
                if stderr.is_empty() {
                    message
                } else {
                    format!("{message}; its stderr ends: {stderr}")
                }
            };
            match listed {
                Ok(Ok(offer)) => Ok(offer),
                Ok(Err(e)) => Err(with_stderr(e)),
                Err(_) => Err(with_stderr(format!(
                    "no answer within {} ms (connectionTimeoutMs)",
                    timeout.as_millis()
                ))),
            }
        }
        Launch::StreamableHttp { url, headers } => {
            match tokio::time::timeout(timeout, sdk_client::list_over_http(url, headers)).await {
                Ok(result) => result,
                Err(_) => Err(format!(
                    "no answer from {url} within {} ms (connectionTimeoutMs)",
                    timeout.as_millis()
                )),
            }
        }
        Launch::Sse { url } => Err(format!(
            "{url} uses the legacy SSE transport, which clawdeck does not speak; set \
             transport: \"streamable-http\" if the server supports it"
        )),
    }
}
