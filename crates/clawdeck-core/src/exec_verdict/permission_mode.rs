//! Session permission modes (`sessions.patch {permissionMode}`, the Control UI's picker; 2026.8
//! and 2026.9): a session's mode replaces the configured exec policy with the mode's own
//! (`read-only` → exec mode `deny`, `guarded` → `ask`, `workspace` → `auto`, `full` → `full`,
//! as the version's `EXEC_MODE_BY_PERMISSION_MODE` says), the host approvals document still
//! tightens it, except under `full`, which bypasses the document's floors while its security
//! stays full. Where the command runs (`tools.exec.host`) still comes from the config.

use std::collections::BTreeMap;

use super::approvals_doc::DocPolicy;
use super::exec_config::ExecConfig;
use super::levels::{Ask, ModeTable, Security, mode_pair};

/// The modes a session can have, in the order OpenClaw lists them.
pub const PERMISSION_MODES: [&str; 4] = ["read-only", "guarded", "workspace", "full"];

/// `permissionMode` → `tools.exec.mode`, when the pack does not say (2026.9.6's and
/// 2026.8.2's table).
fn default_table() -> BTreeMap<String, String> {
    [
        ("read-only", "deny"),
        ("guarded", "ask"),
        ("workspace", "auto"),
        ("full", "full"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// A turn's own exec policy: `/exec security=... ask=...` at the head of a chat message (that
/// run only). Without a permission mode it replaces the configured fields; with one it can only
/// tighten them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnExec {
    pub security: Option<Security>,
    pub ask: Option<Ask>,
}

impl TurnExec {
    fn key(&self, field: &str, value: &str) -> String {
        format!("the turn's /exec {field}={value}")
    }

    /// The turn's fields over the configured ones (no permission mode).
    pub fn replace_in(&self, cfg: &mut ExecConfig) {
        if let Some(security) = self.security {
            cfg.set_security(security, self.key("security", security.as_str()));
        }
        if let Some(ask) = self.ask {
            cfg.set_ask(ask, self.key("ask", ask.as_str()));
        }
    }
}

/// Applies a session's permission `mode` to the config's exec policy and the approvals
/// document's floors. `table`: the version's permission modes (None: the default table);
/// `modes`: its exec mode table. The error names the modes there are.
pub fn apply(
    mode: &str,
    table: Option<&BTreeMap<String, String>>,
    modes: Option<&ModeTable>,
    cfg: &mut ExecConfig,
    doc: &mut DocPolicy,
    turn: &TurnExec,
) -> Result<(), String> {
    let fallback = default_table();
    let table = table.unwrap_or(&fallback);
    let unknown = || {
        format!(
            "unknown permission mode {mode:?} (one of: {})",
            table.keys().cloned().collect::<Vec<_>>().join(", ")
        )
    };
    let exec_mode = table.get(mode).ok_or_else(unknown)?;
    let policy = mode_pair(exec_mode, modes).ok_or_else(unknown)?;
    let (mut security, mut ask) = (policy.0, policy.1);
    cfg.set_mode(
        exec_mode,
        policy,
        format!("the session's permissionMode \"{mode}\""),
    );
    // A turn's `/exec` only tightens a session with a mode.
    if let Some(tighter) = turn.security.filter(|s| *s < security) {
        cfg.set_security(tighter, turn.key("security", tighter.as_str()));
        security = tighter;
    }
    if let Some(tighter) = turn.ask.filter(|a| *a > ask) {
        cfg.set_ask(tighter, turn.key("ask", tighter.as_str()));
        ask = tighter;
    }
    if mode == "full" && security == Security::Full {
        // Full access is the admin-granted exception to the host document's floors.
        doc.security = None;
        doc.ask = None;
        doc.ask_fallback = None;
        // OpenClaw's bypassHostApprovalFloors: with ask off nothing asks, strict inline eval
        // and lines the gateway cannot pin included.
        if ask == Ask::Off {
            cfg.bypass_approvals = Some((
                "permissionMode",
                format!("the session's permissionMode \"{mode}\""),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> ExecConfig {
        ExecConfig::for_agent(
            &crate::config::load_from_str("{ tools: { exec: { security: \"full\" } } }", "t")
                .unwrap_or_else(|e| panic!("{e}")),
            "main",
        )
    }

    #[test]
    fn each_mode_replaces_the_configured_policy_and_full_lifts_the_documents_floors() {
        let floor = || DocPolicy {
            security: Some((Security::Allowlist, "agents.*.security".into())),
            ask: Some((Ask::Always, "agents.*.ask".into())),
            ..DocPolicy::default()
        };
        let mut c = cfg();
        let mut doc = floor();
        apply(
            "read-only",
            None,
            None,
            &mut c,
            &mut doc,
            &TurnExec::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.security.value, c.ask.value), (Security::Deny, Ask::Off));
        assert!(c.configured_deny && doc.security.is_some());
        assert!(
            c.security
                .key
                .as_deref()
                .is_some_and(|k| k.contains("read-only"))
        );

        let mut c = cfg();
        let mut doc = floor();
        apply(
            "guarded",
            None,
            None,
            &mut c,
            &mut doc,
            &TurnExec::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (c.security.value, c.ask.value),
            (Security::Allowlist, Ask::OnMiss)
        );
        assert!(
            doc.ask.is_some(),
            "the document still tightens a guarded session"
        );

        let mut c = cfg();
        let mut doc = floor();
        apply(
            "workspace",
            None,
            None,
            &mut c,
            &mut doc,
            &TurnExec::default(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(c.auto_review);

        let mut c = cfg();
        let mut doc = floor();
        apply("full", None, None, &mut c, &mut doc, &TurnExec::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.security.value, c.ask.value), (Security::Full, Ask::Off));
        assert!(doc.security.is_none() && doc.ask.is_none());

        let err = apply(
            "root",
            None,
            None,
            &mut cfg(),
            &mut floor(),
            &TurnExec::default(),
        )
        .unwrap_err();
        assert!(
            err.contains("read-only, guarded") || err.contains("full"),
            "{err}"
        );
    }

    #[test]
    fn a_turns_exec_only_tightens_a_mode_and_a_tightened_full_keeps_the_floors() {
        let floor = || DocPolicy {
            security: Some((Security::Allowlist, "agents.*.security".into())),
            ..DocPolicy::default()
        };
        let looser = TurnExec {
            security: Some(Security::Full),
            ask: Some(Ask::Off),
        };
        let mut c = cfg();
        let mut doc = floor();
        apply("guarded", None, None, &mut c, &mut doc, &looser).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            c.security
                .key
                .as_deref()
                .is_some_and(|k| k.contains("permissionMode")),
            "a looser /exec leaves the mode's limits: {c:?}"
        );
        let deny = TurnExec {
            security: Some(Security::Deny),
            ask: None,
        };
        let mut c = cfg();
        let mut doc = floor();
        apply("full", None, None, &mut c, &mut doc, &deny).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.security.value, Security::Deny);
        assert_eq!(
            c.security.key.as_deref(),
            Some("the turn's /exec security=deny")
        );
        assert!(doc.security.is_some() && c.bypass_approvals.is_none());
        let always = TurnExec {
            security: None,
            ask: Some(Ask::Always),
        };
        let mut c = cfg();
        let mut doc = floor();
        apply("full", None, None, &mut c, &mut doc, &always).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.ask.value, Ask::Always);
        assert!(
            doc.security.is_none() && c.bypass_approvals.is_none(),
            "a tighter ask keeps the floors lifted but asks"
        );
    }
}
