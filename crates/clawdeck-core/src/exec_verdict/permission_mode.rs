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

/// Applies a session's permission `mode` to the config's exec policy and the approvals
/// document's floors. `table`: the version's permission modes (None: the default table);
/// `modes`: its exec mode table. The error names the modes there are.
pub fn apply(
    mode: &str,
    table: Option<&BTreeMap<String, String>>,
    modes: Option<&ModeTable>,
    cfg: &mut ExecConfig,
    doc: &mut DocPolicy,
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
    let (security, ask) = (policy.0, policy.1);
    cfg.set_mode(
        exec_mode,
        policy,
        format!("the session's permissionMode \"{mode}\""),
    );
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
        apply("read-only", None, None, &mut c, &mut doc).unwrap_or_else(|e| panic!("{e}"));
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
        apply("guarded", None, None, &mut c, &mut doc).unwrap_or_else(|e| panic!("{e}"));
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
        apply("workspace", None, None, &mut c, &mut doc).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.auto_review);

        let mut c = cfg();
        let mut doc = floor();
        apply("full", None, None, &mut c, &mut doc).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((c.security.value, c.ask.value), (Security::Full, Ask::Off));
        assert!(doc.security.is_none() && doc.ask.is_none());

        let err = apply("root", None, None, &mut cfg(), &mut floor()).unwrap_err();
        assert!(
            err.contains("read-only, guarded") || err.contains("full"),
            "{err}"
        );
    }
}
