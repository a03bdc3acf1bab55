//! The console's `keys` overrides as plain data: the action names and the key grammar
//! (`q`, `G`, `ctrl-c`, `alt-x`, `shift-tab`, `f5`, `pageup`, ...). The config check uses them to
//! reject an unknown action or an unparsable key with its place, without any terminal code; the
//! console's keymap (src/tui/keymap.rs) builds its bindings from the same names and parser, and
//! a test there keeps its table and `ACTION_NAMES` equal.

/// Every action a `keys` override may name, in the order of the console's key table.
pub const ACTION_NAMES: &[&str] = &[
    "quit",
    "help",
    "next_view",
    "prev_view",
    "view_policy",
    "view_queue",
    "view_router",
    "view_invoke",
    "view_prompt",
    "view_decisions",
    "view_sessions",
    "view_approvals",
    "view_lint",
    "view_diff",
    "view_gateways",
    "edit_context",
    "reload_config",
    "up",
    "down",
    "page_up",
    "page_down",
    "top",
    "bottom",
    "detail_up",
    "detail_down",
    "scroll_left",
    "scroll_right",
    "search",
    "search_next",
    "search_prev",
    "open",
    "hidden_only",
    "lane_limit_up",
    "lane_limit_down",
    "clear_lane",
    "kill_run",
    "extend_timeout",
    "set_timeout",
    "new_run",
    "follow",
    "copy_output",
    "run_tool",
    "history",
    "cycle_provider",
    "cycle_prompt_mode",
    "toggle_wrap",
    "next_section",
    "prev_section",
    "message_session",
    "steer_session",
    "allow_once",
    "allow_always",
    "deny_approval",
    "standing_grants",
    "invoke_target",
    "compare_session",
    "check_exec_command",
    "diff_agent",
    "diff_owner",
    "diff_subagent",
    "diff_sandbox",
    "diff_version",
    "diff_reset",
];

/// A key without modifiers, as the grammar names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NamedKey {
    Char(char),
    Tab,
    BackTab,
    Enter,
    Esc,
    Backspace,
    Delete,
    Insert,
    Up,
    Down,
    Left,
    Right,
    Home,
    End,
    PageUp,
    PageDown,
    F(u8),
}

/// A key and its modifiers (`ctrl-c`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyChord {
    pub key: NamedKey,
    pub ctrl: bool,
    pub alt: bool,
    pub shift: bool,
}

/// Parses one key name; the error says what is wrong with it.
pub fn parse_key(spec: &str) -> Result<KeyChord, String> {
    let (mut ctrl, mut alt, mut shift) = (false, false, false);
    let mut rest = spec;
    loop {
        let lower = rest.to_ascii_lowercase();
        let cut = if let Some(r) = lower
            .strip_prefix("ctrl-")
            .or_else(|| lower.strip_prefix("c-"))
        {
            ctrl = true;
            r.len()
        } else if let Some(r) = lower
            .strip_prefix("alt-")
            .or_else(|| lower.strip_prefix("m-"))
        {
            alt = true;
            r.len()
        } else if let Some(r) = lower.strip_prefix("shift-").filter(|r| r.len() > 1) {
            shift = true;
            r.len()
        } else {
            break;
        };
        rest = &rest[rest.len() - cut..];
    }
    if rest.is_empty() {
        return Err(format!("empty key in `{spec}`"));
    }
    let key = match rest.to_ascii_lowercase().as_str() {
        "tab" if shift => {
            shift = false;
            NamedKey::BackTab
        }
        "tab" => NamedKey::Tab,
        "backtab" => NamedKey::BackTab,
        "enter" | "return" => NamedKey::Enter,
        "esc" | "escape" => NamedKey::Esc,
        "space" => NamedKey::Char(' '),
        "backspace" => NamedKey::Backspace,
        "delete" | "del" => NamedKey::Delete,
        "insert" | "ins" => NamedKey::Insert,
        "up" => NamedKey::Up,
        "down" => NamedKey::Down,
        "left" => NamedKey::Left,
        "right" => NamedKey::Right,
        "home" => NamedKey::Home,
        "end" => NamedKey::End,
        "pageup" | "pgup" => NamedKey::PageUp,
        "pagedown" | "pgdn" => NamedKey::PageDown,
        f if f.len() >= 2 && f.starts_with('f') && f[1..].bytes().all(|b| b.is_ascii_digit()) => {
            match f[1..].parse::<u8>() {
                Ok(n) if (1..=24).contains(&n) => NamedKey::F(n),
                _ => return Err(format!("no function key `{rest}` (f1 to f24) in `{spec}`")),
            }
        }
        _ => {
            let mut chars = rest.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if ctrl => NamedKey::Char(c.to_ascii_lowercase()),
                (Some(c), None) => NamedKey::Char(c),
                _ => return Err(format!("unknown key `{rest}` in `{spec}`")),
            }
        }
    };
    Ok(KeyChord {
        key,
        ctrl,
        alt,
        shift,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_names() {
        let c = parse_key("ctrl-c").unwrap();
        assert_eq!(c.key, NamedKey::Char('c'));
        assert!(c.ctrl && !c.alt && !c.shift);
        assert_eq!(parse_key("shift-tab").unwrap().key, NamedKey::BackTab);
        assert!(!parse_key("shift-tab").unwrap().shift);
        assert_eq!(parse_key("F5").unwrap().key, NamedKey::F(5));
        assert_eq!(parse_key("G").unwrap().key, NamedKey::Char('G'));
        assert_eq!(parse_key("ctrl-K").unwrap().key, NamedKey::Char('k'));
        assert_eq!(parse_key("[").unwrap().key, NamedKey::Char('['));
    }

    #[test]
    fn rejects_what_is_not_a_key() {
        for bad in ["ctrl-ctrl-ctrl", "ctrl-", "nonsense", "f99", "f0", ""] {
            assert!(parse_key(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_key("ctrl-ctrl-ctrl").unwrap_err(),
            "unknown key `ctrl` in `ctrl-ctrl-ctrl`"
        );
    }

    #[test]
    fn action_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for name in ACTION_NAMES {
            assert!(seen.insert(name), "{name} twice");
        }
    }
}
