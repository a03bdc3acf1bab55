//! The operator's desk on the gateways: one approver connection per gateway (the `approvals`
//! and `exec-approvals` capabilities, so the gateway routes approvals of every kind to it), kept
//! attached in the background. It reports the approvals pending at every (re)connect (exec,
//! plugin and system-agent lists) and every `*.approval.requested` / `resolved`, and carries
//! out the operator's acts on the same connections: resolving (each kind through its method),
//! reading `approval.history` and the standing grants, revoking a grant, and `tools.invoke`.
//! Results come back as events through the sink, so the console's UI task never touches a
//! socket.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::approval_ledger::{self, Grant, HistoryEntry};
use super::approvals::{ApprovalKind, Decision, resolve_call};
use super::client::{Backoff, ClientEvent, GatewayClient};
use super::connection::{APPROVALS_CAP, ConnectOptions, EXEC_APPROVALS_CAP};
use super::endpoint::GatewayEndpoint;
use super::identity::DeviceIdentity;
use super::invoke::InvokeRequest;
use super::invoke_run::{self, GatewayCall};
use super::watch::{WatchItem, WatchKind, classify};

/// What the desk reports.
#[derive(Debug, Clone)]
pub enum DeskEvent {
    /// An approval event, a pending approval found at attach time (as `ApprovalRequested`), or
    /// the approver connection's own news (`Connected`, `Disconnected`, `Failed`).
    Item(WatchItem),
    /// The answer to `resolve` (echoes the request).
    ResolveDone {
        gateway: String,
        id: String,
        decision: Decision,
        error: Option<String>,
    },
    /// The answer to `invoke` (echoes the call number).
    InvokeDone { call: u64, outcome: GatewayCall },
    /// A turn the operator started (`chat`), or the answer to `abort` (see desk_session.rs).
    Session(SessionNews),
    /// A gateway's `approval.history` (newest first) or why it could not be read.
    History {
        gateway: String,
        result: Result<Vec<HistoryEntry>, String>,
    },
    /// A gateway's standing grants or why they could not be read.
    Grants {
        gateway: String,
        result: Result<Vec<Grant>, String>,
    },
    /// The answer to `revoke_grant`: the gateway's outcome (`revoked`, `already-revoked`,
    /// `not-found`) or the error.
    RevokeDone {
        gateway: String,
        grant_id: String,
        result: Result<String, String>,
    },
}

/// Receives the desk's events; returns false when nobody listens any more.
pub type DeskSink = Arc<dyn Fn(DeskEvent) -> bool + Send + Sync>;

/// Handle on the running desk. Cheap to clone.
#[derive(Clone)]
pub struct GatewayDesk {
    names: Vec<String>,
    /// How the approver connections present themselves (with `operator.admin` when the
    /// operator chose to see every operator's approvals).
    options: ConnectOptions,
    clients: Arc<Mutex<HashMap<String, GatewayClient>>>,
    sink: DeskSink,
}

/// The approver's connect options: the default ones plus `approvals` (every kind: exec,
/// plugin, system agent) and `exec-approvals` (exec, for gateways before the kind-agnostic cap).
pub fn approver_options() -> ConnectOptions {
    let mut options = ConnectOptions::default();
    options.caps.push(APPROVALS_CAP.to_string());
    options.caps.push(EXEC_APPROVALS_CAP.to_string());
    options
}

/// Whether an item belongs on an approvals desk.
pub fn is_desk_item(item: &WatchItem) -> bool {
    matches!(
        item.kind,
        WatchKind::ApprovalRequested(_)
            | WatchKind::ApprovalResolved { .. }
            | WatchKind::Connected { .. }
            | WatchKind::Disconnected { .. }
            | WatchKind::Failed { .. }
    )
}

/// The pending approvals of every kind on `client`, as `*.approval.requested` items (the
/// kinds' list methods; one the gateway refuses is left out, its error returned).
pub async fn list_all_pending(
    client: &GatewayClient,
    gateway: &str,
) -> (Vec<WatchItem>, Vec<String>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for kind in ApprovalKind::ALL {
        match client.request(&kind.list_method(), json!({})).await {
            Ok(list) => items.extend(
                pending_in(&list)
                    .iter()
                    .map(|entry| classify(gateway, &kind.requested_event(), entry)),
            ),
            Err(e) => errors.push(format!("{}: {e}", kind.list_method())),
        }
    }
    (items, errors)
}

/// The approvals an `*.approval.list` answer holds (a bare array in 2026.9.6).
pub fn pending_in(list: &Value) -> Vec<Value> {
    list.get("approvals")
        .or_else(|| list.get("items"))
        .and_then(Value::as_array)
        .or_else(|| list.as_array())
        .cloned()
        .unwrap_or_default()
}

impl GatewayDesk {
    /// Starts one background task per gateway; `stop` ends them and closes their connections.
    pub fn spawn(
        endpoints: Vec<GatewayEndpoint>,
        identity: DeviceIdentity,
        backoff: Backoff,
        sink: DeskSink,
        stop: CancellationToken,
    ) -> GatewayDesk {
        Self::spawn_with(endpoints, identity, approver_options(), backoff, sink, stop)
    }

    /// As [`spawn`](Self::spawn), the approver connections presenting `options`.
    pub fn spawn_with(
        endpoints: Vec<GatewayEndpoint>,
        identity: DeviceIdentity,
        options: ConnectOptions,
        backoff: Backoff,
        sink: DeskSink,
        stop: CancellationToken,
    ) -> GatewayDesk {
        let desk = GatewayDesk {
            names: endpoints.iter().map(|e| e.name.clone()).collect(),
            options,
            clients: Arc::default(),
            sink,
        };
        for endpoint in endpoints {
            let desk = desk.clone();
            let identity = identity.clone();
            let backoff = backoff.clone();
            let stop = stop.clone();
            tokio::spawn(async move {
                let name = endpoint.name.clone();
                tokio::select! {
                    _ = stop.cancelled() => {}
                    _ = desk.attend(endpoint, identity, backoff) => {}
                }
                // Stopped, or the gateway gave up: its connection goes with the task.
                let client = desk.clients.lock().ok().and_then(|mut c| c.remove(&name));
                if let Some(client) = client {
                    client.close();
                }
            });
        }
        desk
    }

    /// The gateways' names, in configuration order.
    pub fn gateways(&self) -> &[String] {
        &self.names
    }

    pub(crate) fn client(&self, gateway: &str) -> Option<GatewayClient> {
        self.clients.lock().ok()?.get(gateway).cloned()
    }

    /// Answers exec approval `id` on `gateway` (see [`resolve_kind`](Self::resolve_kind)).
    pub fn resolve(&self, gateway: &str, id: &str, decision: Decision) {
        self.resolve_kind(gateway, id, ApprovalKind::Exec, decision);
    }

    /// Answers approval `id` of `kind` on `gateway` through that kind's method; the outcome
    /// comes back as `ResolveDone` (the gateway's `*.approval.resolved` follows as an `Item`).
    pub fn resolve_kind(&self, gateway: &str, id: &str, kind: ApprovalKind, decision: Decision) {
        let (desk, gateway, id) = (self.clone(), gateway.to_string(), id.to_string());
        tokio::spawn(async move {
            let (method, params) = resolve_call(&id, kind, decision);
            let error = desk.request_on(&gateway, &method, params).await.err();
            (desk.sink)(DeskEvent::ResolveDone {
                gateway,
                id,
                decision,
                error,
            });
        });
    }

    /// Runs a tool on `gateway` (`tools.invoke`, the path `clawdeck invoke --via gateway`
    /// takes); the outcome comes back as `InvokeDone`.
    pub fn invoke(&self, gateway: &str, call: u64, request: InvokeRequest, timeout: Duration) {
        let (desk, gateway) = (self.clone(), gateway.to_string());
        tokio::spawn(async move {
            let outcome = match desk.client(&gateway) {
                Some(client) => invoke_run::run(&client, &request, timeout).await,
                None => GatewayCall::Refused(invoke_run::transport_refusal(
                    &gateway,
                    &request.tool,
                    &super::GatewayError::Disconnected {
                        reason: format!("gateway {gateway} is not attached (yet)"),
                    },
                )),
            };
            (desk.sink)(DeskEvent::InvokeDone { call, outcome });
        });
    }

    /// One request on `gateway`'s approver connection; the error said for an operator
    /// (including a gateway not attached yet).
    async fn request_on(
        &self,
        gateway: &str,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        match self.client(gateway) {
            None => Err(format!("gateway {gateway} is not attached")),
            Some(client) => client
                .request(method, params)
                .await
                .map_err(|e| e.to_string()),
        }
    }

    pub(crate) fn report(&self, event: DeskEvent) -> bool {
        (self.sink)(event)
    }

    /// Reads `gateway`'s approval history (newest first, at most `limit`); it comes back as
    /// `History`.
    pub fn history(&self, gateway: &str, limit: u64) {
        let (desk, gateway) = (self.clone(), gateway.to_string());
        tokio::spawn(async move {
            let mut pager = approval_ledger::HistoryPager::new(&gateway, limit, None);
            let mut result = Ok(());
            while let Some(params) = pager.next_params() {
                match desk.request_on(&gateway, "approval.history", params).await {
                    Ok(page) => pager.take(&page),
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            let result = result.map(|()| pager.into_entries());
            (desk.sink)(DeskEvent::History { gateway, result });
        });
    }

    /// Reads `gateway`'s standing grants; they come back as `Grants`.
    pub fn grants(&self, gateway: &str) {
        let (desk, gateway) = (self.clone(), gateway.to_string());
        tokio::spawn(async move {
            let params = json!({"limit": approval_ledger::GRANTS_MAX});
            let result = desk
                .request_on(&gateway, "exec.approval.grants.list", params)
                .await
                .map(|list| approval_ledger::grants_in(&gateway, &list));
            (desk.sink)(DeskEvent::Grants { gateway, result });
        });
    }

    /// Revokes standing grant `grant_id` on `gateway`; the outcome comes back as `RevokeDone`.
    pub fn revoke_grant(&self, gateway: &str, grant_id: &str) {
        let (desk, gateway, grant_id) = (self.clone(), gateway.to_string(), grant_id.to_string());
        tokio::spawn(async move {
            let params = json!({"grantId": grant_id});
            let result = desk
                .request_on(&gateway, "exec.approval.grants.revoke", params)
                .await
                .map(|v| {
                    v.get("outcome")
                        .and_then(Value::as_str)
                        .unwrap_or("revoked")
                        .to_string()
                });
            (desk.sink)(DeskEvent::RevokeDone {
                gateway,
                grant_id,
                result,
            });
        });
    }

    fn publish(&self, item: WatchItem) -> bool {
        (self.sink)(DeskEvent::Item(item))
    }

    /// Keeps one gateway attached: connect (retrying while it is unreachable), list what is
    /// pending, then forward approval events; after a reconnect, list again.
    async fn attend(&self, endpoint: GatewayEndpoint, identity: DeviceIdentity, backoff: Backoff) {
        let name = endpoint.name.clone();
        let report = |event: ClientEvent| match WatchItem::from_client_event(&name, &event) {
            Some(item) => self.publish(item),
            None => true,
        };
        let Some(client) = GatewayClient::connect_retrying(
            endpoint,
            identity,
            self.options.clone(),
            backoff,
            report,
        )
        .await
        else {
            return;
        };
        let mut events = client.event_stream(crate::FEED_CAPACITY);
        if let Ok(mut clients) = self.clients.lock() {
            clients.insert(name.clone(), client.clone());
        }
        let connected = ClientEvent::Connected {
            hello: Arc::new(client.hello().clone()),
            reconnect: false,
        };
        if let Some(item) = WatchItem::from_client_event(&name, &connected)
            && !self.publish(item)
        {
            return;
        }
        if !self.list_pending(&client, &name).await {
            return;
        }
        while let Some(event) = events.recv().await {
            // A gap in the events (the desk fell behind a flood) is filled like a reconnect.
            let reconnected = matches!(
                event,
                ClientEvent::Connected { .. } | ClientEvent::Lagged { .. }
            );
            if let Some(item) = WatchItem::from_client_event(&name, &event)
                && is_desk_item(&item)
                && !self.publish(item)
            {
                return;
            }
            if reconnected && !self.list_pending(&client, &name).await {
                return;
            }
        }
    }

    /// Publishes the approvals of every kind pending now; false when nobody listens any more.
    /// A failed list is left to the next reconnect.
    async fn list_pending(&self, client: &GatewayClient, name: &str) -> bool {
        let (items, _) = list_all_pending(client, name).await;
        items.into_iter().all(|item| self.publish(item))
    }
}

/// A session act's news, naming the session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionNews {
    pub gateway: String,
    pub session_key: String,
    pub news: SessionAct,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SessionAct {
    /// An event of the turn the console started.
    Turn(Box<super::chat::ChatEvent>),
    /// The gateway refused the message or the turn broke off (not attached, not offered, ...).
    Failed { action: &'static str, error: String },
    /// The abort was taken; `summary` says what the gateway did (`aborted run R`,
    /// `no-active-run`).
    Aborted { summary: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_lists_are_read_in_every_shape() {
        let one = json!({"id": "a1", "request": {"command": "echo x"}});
        assert_eq!(pending_in(&json!([one.clone()])), vec![one.clone()]);
        assert_eq!(pending_in(&json!({"approvals": [one.clone()]})), vec![one]);
        assert!(pending_in(&json!({"ok": true})).is_empty());
    }

    #[test]
    fn the_approver_advertises_exec_approvals() {
        let options = approver_options();
        assert!(options.caps.iter().any(|c| c == "exec-approvals"));
        assert!(
            options.caps.iter().any(|c| c == "approvals"),
            "plugin and system-agent approvals reach only the approvals cap"
        );
        assert!(options.caps.iter().any(|c| c == "tool-events"));
        assert!(options.scopes.iter().any(|s| s == "operator.approvals"));
    }
}
