//! The three orderings OpenClaw combines exec settings by: security (deny < allowlist < full,
//! the stricter wins), ask (off < on-miss < always, the stricter wins) and the mode presets
//! that set both (`exec-approvals-core`'s `resolveExecPolicyForMode`).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Security {
    Deny,
    Allowlist,
    Full,
}

impl Security {
    pub fn parse(text: &str) -> Option<Security> {
        match text.trim().to_lowercase().as_str() {
            "deny" => Some(Security::Deny),
            "allowlist" => Some(Security::Allowlist),
            "full" => Some(Security::Full),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Security::Deny => "deny",
            Security::Allowlist => "allowlist",
            Security::Full => "full",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ask {
    Off,
    OnMiss,
    Always,
}

impl Ask {
    pub fn parse(text: &str) -> Option<Ask> {
        match text.trim().to_lowercase().as_str() {
            "off" => Some(Ask::Off),
            "on-miss" => Some(Ask::OnMiss),
            "always" => Some(Ask::Always),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Ask::Off => "off",
            Ask::OnMiss => "on-miss",
            Ask::Always => "always",
        }
    }
}

/// A version's `tools.exec.mode` table (its pack's `exec.modes`).
pub type ModeTable = std::collections::BTreeMap<String, crate::exec_allowlist::ModePolicy>;

/// The (security, ask) pair a `tools.exec.mode` stands for, and whether a reviewer model
/// answers misses first (`auto`), from the version's table; without one, 2026.9.6's (the same
/// in 2026.8.2).
pub fn mode_pair(mode: &str, table: Option<&ModeTable>) -> Option<(Security, Ask, bool)> {
    let mode = mode.trim().to_lowercase();
    if let Some(table) = table {
        let policy = table.get(&mode)?;
        return Some((
            Security::parse(&policy.security)?,
            Ask::parse(&policy.ask)?,
            policy.auto_review,
        ));
    }
    match mode.as_str() {
        "deny" => Some((Security::Deny, Ask::Off, false)),
        "allowlist" => Some((Security::Allowlist, Ask::Off, false)),
        "ask" => Some((Security::Allowlist, Ask::OnMiss, false)),
        "auto" => Some((Security::Allowlist, Ask::OnMiss, true)),
        "full" => Some((Security::Full, Ask::Off, false)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stricter_value_is_the_smaller_security_and_the_larger_ask() {
        assert_eq!(Security::Full.min(Security::Allowlist), Security::Allowlist);
        assert_eq!(Security::Deny.min(Security::Full), Security::Deny);
        assert_eq!(Ask::Off.max(Ask::Always), Ask::Always);
        assert_eq!(
            mode_pair("ask", None),
            Some((Security::Allowlist, Ask::OnMiss, false))
        );
        assert_eq!(mode_pair("bogus", None), None);
        assert_eq!(Security::parse(" Allowlist "), Some(Security::Allowlist));
        assert_eq!(Ask::parse("on-miss"), Some(Ask::OnMiss));
    }
}
