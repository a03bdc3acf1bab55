//! `clawdeck approvals pending | history | grants | revoke GRANT_ID`: what the gateways hold
//! about approvals besides the live events: the pending ones of every kind, the terminal ones
//! (`approval.history`) and the standing grants (`exec.approval.grants.*`). Every gateway text
//! is shown visibly (`sanitize::visible`) and through the output guard.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use super::gateway_args::GatewayArgs;
use super::gateway_args::attach_all;
use super::{Cli, exit};
use crate::gateway::approval_ledger::{self, Grant, HistoryEntry};
use crate::gateway::approvals::{Approval, ApprovalKind};
use crate::gateway::desk::list_all_pending;
use crate::gateway::watch::WatchKind;
use crate::sanitize::visible;

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// `text` shown visibly (controls escaped, invisible characters marked) on one line.
fn shown(text: &str) -> String {
    visible(text)
        .text
        .replace("\r\n", "⏎")
        .replace(['\n', '\r'], "⏎")
}

/// Seconds (or minutes) until `at_ms`, or "expired".
fn expires_text(at_ms: Option<u64>, now_ms: u64) -> String {
    match at_ms {
        None => "no expiry".to_string(),
        Some(at) if at <= now_ms => "expired".to_string(),
        Some(at) => {
            let secs = (at - now_ms).div_ceil(1000);
            if secs >= 120 {
                format!("expires in {}m{:02}s", secs / 60, secs % 60)
            } else {
                format!("expires in {secs}s")
            }
        }
    }
}

/// One pending approval: kind, id, expiry, who asks, then every field it approves in full.
fn pending_text(gateway: &str, a: &Approval, now_ms: u64) -> String {
    let mut text = format!(
        "[{}] {} {} ({}) agent {} session {}",
        shown(gateway),
        a.kind.as_str(),
        shown(&a.id),
        expires_text(a.expires_at_ms, now_ms),
        shown(&a.agent),
        shown(&a.session_key)
    );
    for (name, value) in a.approves() {
        text.push_str(&format!("\n  {name}: {}", shown(value)));
    }
    if a.has_hidden_chars() {
        text.push_str(&format!("\n  ⚠ {}", crate::sanitize::HIDDEN_CHARS_WARNING));
    }
    text
}

/// What a list without `operator.admin` leaves out, and what would show it.
fn mine_only_note(gateways: &[&String]) -> String {
    let names: Vec<String> = gateways.iter().map(|g| shown(g)).collect();
    format!(
        "note: only this device's approvals are listed on {}: other operators' (other devices, \
         channel and cron turns, OpenClaw's TUI) are not shown without operator.admin; \
         --all-operators (or clawdeck.json5 approvals.allOperators: true) asks for it",
        names.join(", ")
    )
}

pub(super) async fn pending(cli: &Cli, gateway: &GatewayArgs, as_json: bool) -> u8 {
    let (clients, mut failed) = match attach_all(cli, gateway, "approvals pending", false).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    let now = now_ms();
    let mut found: Vec<(String, Approval)> = Vec::new();
    // Per gateway: whether other operators' approvals are in the list (operator.admin held).
    let all_operators: BTreeMap<String, bool> = clients
        .iter()
        .map(|c| (c.endpoint().name.clone(), c.hello().sees_all_operators()))
        .collect();
    for client in &clients {
        let name = client.endpoint().name.clone();
        let (items, errors) = list_all_pending(client, &name).await;
        for e in errors {
            super::err_untrusted(cli, &format!("clawdeck approvals pending: {name}: {e}"));
            failed = true;
        }
        for item in items {
            if let WatchKind::ApprovalRequested(a) = item.kind {
                found.push((name.clone(), *a));
            }
        }
        client.close();
    }
    // Soonest to expire first: the one to answer first.
    found.sort_by_key(|(_, a)| a.expires_at_ms.unwrap_or(u64::MAX));
    if as_json {
        let approvals: Vec<Value> = found
            .iter()
            .map(|(g, a)| {
                let mut v = a.to_json();
                v["gateway"] = json!(g);
                v
            })
            .collect();
        outln!(
            "{}",
            json!({"approvals": approvals, "allOperators": all_operators})
        );
    } else if found.is_empty() {
        outln!("no pending approvals");
    } else {
        for (g, a) in &found {
            super::out_untrusted(cli, &format!("{}\n", pending_text(g, a, now)));
        }
    }
    let mine_only: Vec<&String> = all_operators
        .iter()
        .filter(|(_, all)| !**all)
        .map(|(g, _)| g)
        .collect();
    if !as_json && !mine_only.is_empty() {
        eprintln!("{}", mine_only_note(&mine_only));
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

fn history_text(e: &HistoryEntry) -> String {
    let by = if e.resolver.is_empty() {
        String::new()
    } else {
        format!(" by {}", shown(&e.resolver))
    };
    format!(
        "[{}] {} {} {}{by} (agent {}, session {})\n  {}",
        shown(&e.gateway),
        shown(&e.kind),
        shown(&e.id),
        shown(&e.outcome()),
        shown(&e.agent),
        shown(&e.session_key),
        shown(&e.summary)
    )
}

pub(super) async fn history(
    cli: &Cli,
    gateway: &GatewayArgs,
    kind: Option<ApprovalKind>,
    limit: u64,
    as_json: bool,
) -> u8 {
    let (clients, mut failed) = match attach_all(cli, gateway, "approvals history", false).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut entries: Vec<HistoryEntry> = Vec::new();
    for client in &clients {
        let name = client.endpoint().name.clone();
        let mut pager = approval_ledger::HistoryPager::new(&name, limit, kind);
        while let Some(params) = pager.next_params() {
            match client.request("approval.history", params).await {
                Ok(page) => pager.take(&page),
                Err(e) => {
                    super::err_untrusted(cli, &format!("clawdeck approvals history: {name}: {e}"));
                    failed = true;
                    break;
                }
            }
        }
        entries.extend(pager.into_entries());
        client.close();
    }
    // Newest first across gateways, as each gateway orders its own.
    entries.sort_by_key(|e| std::cmp::Reverse(e.resolved_at_ms.unwrap_or(0)));
    if as_json {
        let items: Vec<Value> = entries.iter().map(HistoryEntry::to_json).collect();
        outln!("{}", json!({"items": items}));
    } else if entries.is_empty() {
        outln!("no resolved approvals (the gateway keeps them 30 days)");
    } else {
        for e in &entries {
            super::out_untrusted(cli, &format!("{}\n", history_text(e)));
        }
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

fn grant_text(g: &Grant, now_ms: u64) -> String {
    let cwd = if g.cwd.is_empty() {
        String::new()
    } else {
        format!(" in {}", shown(&g.cwd))
    };
    format!(
        "[{}] {} automation {} (agent {}): {}, used {} time(s)\n  command: {}{cwd}",
        shown(&g.gateway),
        shown(&g.grant_id),
        shown(&g.automation),
        shown(&g.agent),
        g.state(now_ms),
        g.use_count,
        shown(&g.command)
    )
}

pub(super) async fn grants(cli: &Cli, gateway: &GatewayArgs, as_json: bool) -> u8 {
    let (clients, mut failed) = match attach_all(cli, gateway, "approvals grants", false).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut all: Vec<Grant> = Vec::new();
    for client in &clients {
        let name = client.endpoint().name.clone();
        let params = json!({"limit": approval_ledger::GRANTS_MAX});
        match client.request("exec.approval.grants.list", params).await {
            Ok(list) => {
                all.extend(approval_ledger::grants_in(&name, &list));
                let left_out = approval_ledger::grants_left_out(&list);
                if left_out > 0 {
                    super::err_untrusted(
                        cli,
                        &format!(
                            "clawdeck approvals grants: {name}: sent {left_out} grants past the {} asked for; they are left out",
                            approval_ledger::GRANTS_MAX
                        ),
                    );
                }
            }
            Err(e) => {
                super::err_untrusted(cli, &format!("clawdeck approvals grants: {name}: {e}"));
                failed = true;
            }
        }
        client.close();
    }
    let now = now_ms();
    if as_json {
        let grants: Vec<Value> = all.iter().map(|g| g.to_json(now)).collect();
        outln!("{}", json!({"grants": grants}));
    } else if all.is_empty() {
        outln!("no standing grants");
    } else {
        for g in &all {
            super::out_untrusted(cli, &format!("{}\n", grant_text(g, now)));
        }
    }
    if failed { exit::TOOL_ERROR } else { exit::OK }
}

pub(super) async fn revoke(cli: &Cli, gateway: &GatewayArgs, grant_id: &str, as_json: bool) -> u8 {
    let (clients, _) = match attach_all(cli, gateway, "approvals revoke", false).await {
        Ok(x) => x,
        Err(code) => return code,
    };
    // The grant belongs to one gateway; the others answer "not-found".
    let mut code = exit::TOOL_ERROR;
    let mut answers = Vec::new();
    for client in &clients {
        let name = client.endpoint().name.clone();
        let params = json!({"grantId": grant_id});
        match client.request("exec.approval.grants.revoke", params).await {
            Ok(v) => {
                let outcome = v.get("outcome").and_then(Value::as_str).unwrap_or("");
                if outcome == "revoked" || outcome == "already-revoked" {
                    if as_json {
                        outln!(
                            "{}",
                            json!({"gateway": name, "grantId": grant_id, "outcome": outcome})
                        );
                    } else {
                        super::out_untrusted(
                            cli,
                            &format!("{name}: grant {} {outcome}\n", shown(grant_id)),
                        );
                    }
                    code = exit::OK;
                    break;
                }
                answers.push(format!("{name}: {}", shown(&v.to_string())));
            }
            Err(e) => answers.push(format!("{name}: {e}")),
        }
    }
    for client in &clients {
        client.close();
    }
    if code != exit::OK {
        for a in answers {
            super::err_untrusted(cli, &format!("clawdeck approvals revoke: {a}"));
        }
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_counts_down_in_seconds_then_minutes() {
        assert_eq!(expires_text(Some(10_500), 1_000), "expires in 10s");
        assert_eq!(
            expires_text(Some(1_000 + 125_000), 1_000),
            "expires in 2m05s"
        );
        assert_eq!(expires_text(Some(1_000), 1_000), "expired");
        assert_eq!(expires_text(None, 1_000), "no expiry");
    }
}
