//! Keys are data. One table (action, default keys, description, views where it applies) drives
//! the footer hints, the `?` help overlay and the user's overrides (`keys` in clawdeck.json5:
//! action name → list of keys), so hints, help and behaviour never drift apart.
//!
//! The convention: a key means one thing in every view where it works (a test holds the table
//! to it). Lower case acts on the selected row or the view; Shift is the related, stronger form
//! (`A` allow always, `T` set the timeout, `X` clear the lane, `G` bottom, `N` previous hit,
//! `J`/`K` the lower pane). Keys that kill, clear or allow for good ask first (`x`, `X`, `A`,
//! and `q` while work is live). Movement is the same everywhere: `j`/`k` and the arrows move
//! the selection, PgUp/PgDn page, `g`/`G` jump, `J`/`K` scroll the lower pane (details, path,
//! transcript, events, output) and `←`/`→` scroll sideways where lines or columns are cut.

use std::collections::BTreeMap;
use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::view_id::ViewId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Action {
    Quit,
    Help,
    NextView,
    PrevView,
    ViewPolicy,
    ViewQueue,
    ViewRouter,
    ViewInvoke,
    ViewPrompt,
    ViewDecisions,
    ViewSessions,
    EditContext,
    ReloadConfig,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    DetailUp,
    DetailDown,
    ScrollLeft,
    ScrollRight,
    Search,
    SearchNext,
    SearchPrev,
    Open,
    HiddenOnly,
    LaneLimitUp,
    LaneLimitDown,
    ClearLane,
    KillRun,
    ExtendTimeout,
    SetTimeout,
    NewRun,
    Follow,
    CopyOutput,
    RunTool,
    History,
    CycleProvider,
    CyclePromptMode,
    ToggleWrap,
    NextSection,
    PrevSection,
    ViewApprovals,
    AllowOnce,
    AllowAlways,
    DenyApproval,
    StandingGrants,
    InvokeTarget,
    ViewLint,
    ViewDiff,
    ViewGateways,
    CompareSession,
    CheckExecCommand,
    DiffAgent,
    DiffOwner,
    DiffSubagent,
    DiffSandbox,
    DiffVersion,
    DiffReset,
    MessageSession,
    SteerSession,
}

/// One row of the keymap table.
pub(crate) struct BindingSpec {
    pub(crate) action: Action,
    /// Name used in `keys` overrides.
    pub(crate) name: &'static str,
    pub(crate) keys: &'static [&'static str],
    pub(crate) description: &'static str,
    /// Views where the binding applies; empty = everywhere.
    pub(crate) views: &'static [ViewId],
    /// Short label for the footer of the views where it applies; empty = not in the footer.
    pub(crate) hint: &'static str,
}

use ViewId::{Approvals, Diff, Gateways, Invoke, Policy, Prompt, Queue, Router, Sessions};

macro_rules! b {
    ($action:ident, $name:literal, [$($k:literal),*], $desc:literal, [$($v:ident),*], $hint:literal) => {
        BindingSpec { action: Action::$action, name: $name, keys: &[$($k),*], description: $desc, views: &[$($v),*], hint: $hint }
    };
}

/// The default keymap. View-specific rows win over global ones for the same key.
pub(crate) const BINDINGS: &[BindingSpec] = &[
    b!(
        Quit,
        "quit",
        ["q", "ctrl-c"],
        "Quit (asks first while runs are live)",
        [],
        "quit"
    ),
    b!(
        Help,
        "help",
        ["?"],
        "Show all keys (type to search)",
        [],
        "help"
    ),
    b!(NextView, "next_view", ["tab"], "Next view", [], "view"),
    b!(PrevView, "prev_view", ["backtab"], "Previous view", [], ""),
    b!(ViewPolicy, "view_policy", ["1"], "Policy view", [], ""),
    b!(ViewQueue, "view_queue", ["2"], "Queue view", [], ""),
    b!(ViewRouter, "view_router", ["3"], "Router view", [], ""),
    b!(ViewInvoke, "view_invoke", ["4"], "Invoke view", [], ""),
    b!(ViewPrompt, "view_prompt", ["5"], "Prompt view", [], ""),
    b!(
        ViewDecisions,
        "view_decisions",
        ["6"],
        "Decisions view (the decision log)",
        [],
        ""
    ),
    b!(
        ViewSessions,
        "view_sessions",
        ["7"],
        "Sessions view (gateways)",
        [],
        ""
    ),
    b!(
        ViewApprovals,
        "view_approvals",
        ["8"],
        "Approvals view (gateways' exec approvals)",
        [],
        ""
    ),
    b!(
        ViewLint,
        "view_lint",
        ["9"],
        "Lint view (clawdeck lint for the config)",
        [],
        ""
    ),
    b!(
        ViewDiff,
        "view_diff",
        ["0"],
        "Diff view (what-if: the context against another)",
        [],
        ""
    ),
    b!(
        ViewGateways,
        "view_gateways",
        ["O"],
        "Gateways view (health, usage per session, the live log)",
        [],
        ""
    ),
    b!(
        EditContext,
        "edit_context",
        ["c"],
        "Edit the context (agent, provider, channel, ...)",
        [],
        "context"
    ),
    b!(
        ReloadConfig,
        "reload_config",
        ["R"],
        "Reload the config now (it also reloads when the file changes)",
        [],
        ""
    ),
    b!(Up, "up", ["up", "k"], "Move up", [], ""),
    b!(Down, "down", ["down", "j"], "Move down", [], ""),
    b!(PageUp, "page_up", ["pageup", "ctrl-b"], "Page up", [], ""),
    b!(
        PageDown,
        "page_down",
        ["pagedown", "ctrl-f"],
        "Page down",
        [],
        ""
    ),
    b!(Top, "top", ["home", "g"], "Go to the top", [], ""),
    b!(Bottom, "bottom", ["end", "G"], "Go to the bottom", [], ""),
    b!(
        DetailUp,
        "detail_up",
        ["K", "shift-up"],
        "Scroll the lower pane up (path, details, transcript, events, output)",
        [],
        ""
    ),
    b!(
        DetailDown,
        "detail_down",
        ["J", "shift-down"],
        "Scroll the lower pane down (path, details, transcript, events, output)",
        [],
        ""
    ),
    b!(
        ScrollLeft,
        "scroll_left",
        ["left"],
        "Scroll left (cut lines, layer columns)",
        [Policy, Router, Invoke, Prompt],
        ""
    ),
    b!(
        ScrollRight,
        "scroll_right",
        ["right"],
        "Scroll right (cut lines, layer columns)",
        [Policy, Router, Invoke, Prompt],
        ""
    ),
    b!(
        Search,
        "search",
        ["/"],
        "Search: the tools list keeps the matches; the stream and the prompt jump to them; the gateway log keeps them",
        [Policy, Router, Prompt, Gateways],
        "search"
    ),
    b!(
        SearchNext,
        "search_next",
        ["n"],
        "Next search hit",
        [Router, Prompt],
        ""
    ),
    b!(
        SearchPrev,
        "search_prev",
        ["N"],
        "Previous search hit",
        [Router, Prompt],
        ""
    ),
    b!(
        Open,
        "open",
        ["enter"],
        "Open the selected row: a lane's calls (Queue), a tool's or call's parameters (Invoke)",
        [Queue, Invoke],
        "open"
    ),
    b!(
        HiddenOnly,
        "hidden_only",
        ["h"],
        "Show hidden tools only",
        [Policy],
        "hidden only"
    ),
    b!(
        LaneLimitUp,
        "lane_limit_up",
        ["+", "="],
        "Raise the lane's limit",
        [Queue],
        "limit +"
    ),
    b!(
        LaneLimitDown,
        "lane_limit_down",
        ["-"],
        "Lower the lane's limit",
        [Queue],
        "limit -"
    ),
    b!(
        ClearLane,
        "clear_lane",
        ["X"],
        "Clear the lane's waiting entries (asks first)",
        [Queue],
        "clear lane"
    ),
    b!(
        KillRun,
        "kill_run",
        ["x", "delete"],
        "Kill the selected run / call and its tree; in Sessions abort the session's turn; in Approvals revoke the selected standing grant (asks first)",
        [Queue, Router, Sessions, Approvals],
        "kill"
    ),
    b!(
        ExtendTimeout,
        "extend_timeout",
        ["t"],
        "Extend the run's timeout by 30 s",
        [Router],
        "+30s"
    ),
    b!(
        SetTimeout,
        "set_timeout",
        ["T"],
        "Set the run's timeout (seconds; asks when it ends the run)",
        [Router],
        ""
    ),
    b!(
        NewRun,
        "new_run",
        ["r"],
        "Start a router run (message, then the agent from the config's agents)",
        [Router],
        "new run"
    ),
    b!(
        Follow,
        "follow",
        ["f"],
        "Follow the stream (jump to the bottom)",
        [Router, Sessions, Gateways],
        "follow"
    ),
    b!(
        CopyOutput,
        "copy_output",
        ["y"],
        "Copy the run's complete record (OSC 52 and a file; the file says where a cap stopped it)",
        [Router],
        "copy"
    ),
    b!(
        RunTool,
        "run_tool",
        ["ctrl-r", "f5"],
        "Run the tool with the edited parameters",
        [Invoke],
        "run"
    ),
    b!(
        History,
        "history",
        ["H"],
        "Switch between tools and the call history (Invoke); pending approvals and the gateways' approval history (Approvals)",
        [Invoke, Approvals],
        "history"
    ),
    b!(
        CycleProvider,
        "cycle_provider",
        ["p"],
        "Next provider payload",
        [Prompt],
        "provider"
    ),
    b!(
        CyclePromptMode,
        "cycle_prompt_mode",
        ["m"],
        "Next prompt mode (full, minimal, none)",
        [Prompt],
        "mode"
    ),
    b!(
        ToggleWrap,
        "toggle_wrap",
        ["w"],
        "Wrap long lines on / off (off: scroll sideways)",
        [Invoke, Prompt, Gateways],
        "wrap"
    ),
    b!(
        NextSection,
        "next_section",
        ["]"],
        "Next section (`## ` heading, the tools payload; the Queue's background execs and gateway runs)",
        [Prompt, Queue],
        "section"
    ),
    b!(
        PrevSection,
        "prev_section",
        ["["],
        "Previous section",
        [Prompt, Queue],
        ""
    ),
    b!(
        MessageSession,
        "message_session",
        ["i"],
        "Message the selected session (chat.send; the reply streams below its transcript)",
        [Sessions],
        "message"
    ),
    b!(
        SteerSession,
        "steer_session",
        ["I"],
        "Steer the selected session's running turn (chat.send, queue mode steer)",
        [Sessions],
        "steer"
    ),
    b!(
        AllowOnce,
        "allow_once",
        ["a"],
        "Allow the selected approval once",
        [Approvals],
        "allow once"
    ),
    b!(
        AllowAlways,
        "allow_always",
        ["A"],
        "Allow the selected command always (asks first)",
        [Approvals],
        "allow always"
    ),
    b!(
        DenyApproval,
        "deny_approval",
        ["d"],
        "Deny the selected approval",
        [Approvals],
        "deny"
    ),
    b!(
        StandingGrants,
        "standing_grants",
        ["S"],
        "Switch between pending approvals and the standing grants (allow-always on automations)",
        [Approvals],
        "grants"
    ),
    b!(
        InvokeTarget,
        "invoke_target",
        ["l"],
        "Where tools run: locally, or on a gateway (tools.invoke); next one",
        [Invoke],
        "run where"
    ),
    b!(
        CompareSession,
        "compare_session",
        ["s"],
        "Compare with a gateway session's real tools (tools.effective)",
        [Policy],
        "session"
    ),
    b!(
        CheckExecCommand,
        "check_exec_command",
        ["!"],
        "Will this command run? Type a command line: exec's verdict (interactive and headless) under exec's layers",
        [Policy],
        ""
    ),
    b!(
        DiffAgent,
        "diff_agent",
        ["e"],
        "What-if side b: next agent (never side a's)",
        [Diff],
        ""
    ),
    b!(
        DiffOwner,
        "diff_owner",
        ["o"],
        "What-if side b: owner on / off",
        [Diff],
        ""
    ),
    b!(
        DiffSubagent,
        "diff_subagent",
        ["u"],
        "What-if side b: subagent on / off",
        [Diff],
        ""
    ),
    b!(
        DiffSandbox,
        "diff_sandbox",
        ["b"],
        "What-if side b: sandbox forced on / off",
        [Diff],
        ""
    ),
    b!(
        DiffVersion,
        "diff_version",
        ["v"],
        "What-if side b: next OpenClaw version pack (never side a's)",
        [Diff],
        ""
    ),
    b!(
        DiffReset,
        "diff_reset",
        ["z"],
        "What-if side b: back to side a",
        [Diff],
        ""
    ),
];

/// A key with modifiers, comparable with crossterm key events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct KeySpec {
    pub(crate) code: KeyCode,
    pub(crate) mods: KeyModifiers,
}

impl KeySpec {
    /// Parses `q`, `G`, `?`, `ctrl-c`, `alt-x`, `tab`, `backtab`, `f5`, `pageup`, `enter`, ...
    /// (the grammar lives in the core, `config::keys`, so the config check uses the same one).
    pub fn parse(spec: &str) -> Result<KeySpec, String> {
        use crate::config::keys::NamedKey;
        let chord = crate::config::keys::parse_key(spec)?;
        let mut mods = KeyModifiers::NONE;
        mods.set(KeyModifiers::CONTROL, chord.ctrl);
        mods.set(KeyModifiers::ALT, chord.alt);
        mods.set(KeyModifiers::SHIFT, chord.shift);
        let code = match chord.key {
            NamedKey::Char(c) => KeyCode::Char(c),
            NamedKey::Tab => KeyCode::Tab,
            NamedKey::BackTab => KeyCode::BackTab,
            NamedKey::Enter => KeyCode::Enter,
            NamedKey::Esc => KeyCode::Esc,
            NamedKey::Backspace => KeyCode::Backspace,
            NamedKey::Delete => KeyCode::Delete,
            NamedKey::Insert => KeyCode::Insert,
            NamedKey::Up => KeyCode::Up,
            NamedKey::Down => KeyCode::Down,
            NamedKey::Left => KeyCode::Left,
            NamedKey::Right => KeyCode::Right,
            NamedKey::Home => KeyCode::Home,
            NamedKey::End => KeyCode::End,
            NamedKey::PageUp => KeyCode::PageUp,
            NamedKey::PageDown => KeyCode::PageDown,
            NamedKey::F(n) => KeyCode::F(n),
        };
        Ok(KeySpec { code, mods })
    }

    /// Whether a key event is this key. Shift is implied by an upper-case or symbol character,
    /// so `G` matches whether or not the terminal reports SHIFT.
    pub(crate) fn matches(&self, key: &KeyEvent) -> bool {
        let mut mods = key.modifiers;
        if let KeyCode::Char(_) = key.code {
            mods.remove(KeyModifiers::SHIFT);
        }
        if key.code == KeyCode::BackTab {
            mods.remove(KeyModifiers::SHIFT);
        }
        let code = match key.code {
            KeyCode::Char(c) if mods.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(c.to_ascii_lowercase())
            }
            c => c,
        };
        code == self.code && mods == self.mods
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mods.contains(KeyModifiers::CONTROL) {
            f.write_str("Ctrl-")?;
        }
        if self.mods.contains(KeyModifiers::ALT) {
            f.write_str("Alt-")?;
        }
        if self.mods.contains(KeyModifiers::SHIFT) {
            f.write_str("Shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) if self.mods.contains(KeyModifiers::CONTROL) => {
                write!(f, "{}", c.to_ascii_uppercase())
            }
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::BackTab => f.write_str("Shift-Tab"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Backspace => f.write_str("Backspace"),
            KeyCode::Delete => f.write_str("Del"),
            KeyCode::Insert => f.write_str("Ins"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::F(n) => write!(f, "F{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// A resolved binding (defaults with the user's overrides applied).
#[derive(Debug, Clone)]
pub(crate) struct Binding {
    pub(crate) action: Action,
    pub(crate) name: &'static str,
    pub(crate) keys: Vec<KeySpec>,
    pub(crate) description: &'static str,
    pub(crate) views: &'static [ViewId],
    pub(crate) hint: &'static str,
}

impl Binding {
    pub(crate) fn applies_in(&self, view: ViewId) -> bool {
        self.views.is_empty() || self.views.contains(&view)
    }

    pub(crate) fn keys_label(&self) -> String {
        self.keys
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub(crate) fn views_label(&self) -> String {
        if self.views.is_empty() {
            "all".to_string()
        } else {
            self.views
                .iter()
                .map(|v| v.title())
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Keymap {
    pub(crate) bindings: Vec<Binding>,
    /// Problems with the overrides (unknown action, bad key), shown in the status line.
    pub(crate) warnings: Vec<String>,
}

impl Default for Keymap {
    fn default() -> Self {
        Self::with_overrides(&BTreeMap::new())
    }
}

impl Keymap {
    /// The default table with `overrides` (action name → keys) applied.
    pub(crate) fn with_overrides(overrides: &BTreeMap<String, Vec<String>>) -> Keymap {
        let mut warnings = Vec::new();
        let mut bindings: Vec<Binding> = BINDINGS
            .iter()
            .map(|b| Binding {
                action: b.action,
                name: b.name,
                keys: b
                    .keys
                    .iter()
                    .filter_map(|k| KeySpec::parse(k).ok())
                    .collect(),
                description: b.description,
                views: b.views,
                hint: b.hint,
            })
            .collect();
        for (name, keys) in overrides {
            let Some(binding) = bindings.iter_mut().find(|b| b.name == name) else {
                warnings.push(format!(
                    "keys.{name}: unknown action (see `?` for the names)"
                ));
                continue;
            };
            let mut parsed = Vec::new();
            for (i, key) in keys.iter().enumerate() {
                match KeySpec::parse(key) {
                    Ok(k) => parsed.push(k),
                    Err(e) => warnings.push(format!("keys.{name}[{i}]: {e}")),
                }
            }
            if !parsed.is_empty() {
                binding.keys = parsed;
            }
        }
        let mut keymap = Keymap { bindings, warnings };
        keymap.warnings.extend(keymap.conflicts());
        keymap
    }

    /// Keys that would mean two things in one view (an override taking a key another action
    /// uses there); the first binding in the table keeps the key.
    pub(crate) fn conflicts(&self) -> Vec<String> {
        let mut out = Vec::new();
        for view in ViewId::ALL {
            let active: Vec<&Binding> = self
                .bindings
                .iter()
                .filter(|b| b.applies_in(view))
                .collect();
            for (i, a) in active.iter().enumerate() {
                for b in &active[i + 1..] {
                    for key in a.keys.iter().filter(|k| b.keys.contains(k)) {
                        let text = format!(
                            "keys: `{key}` means both {} and {} in the {} view",
                            a.name,
                            b.name,
                            view.title()
                        );
                        if !out.contains(&text) {
                            out.push(text);
                        }
                    }
                }
            }
        }
        out
    }

    /// The action a key triggers in a view: view-specific bindings win over global ones.
    pub(crate) fn lookup(&self, view: ViewId, key: &KeyEvent) -> Option<Action> {
        let hit = |specific: bool| {
            self.bindings
                .iter()
                .filter(|b| b.views.is_empty() != specific && b.applies_in(view))
                .find(|b| b.keys.iter().any(|k| k.matches(key)))
                .map(|b| b.action)
        };
        hit(true).or_else(|| hit(false))
    }

    pub(crate) fn binding(&self, action: Action) -> Option<&Binding> {
        self.bindings.iter().find(|b| b.action == action)
    }

    /// The key that switches to a view (the tabs show it).
    pub(crate) fn view_key(&self, view: ViewId) -> String {
        let action = match view {
            ViewId::Policy => Action::ViewPolicy,
            ViewId::Queue => Action::ViewQueue,
            ViewId::Router => Action::ViewRouter,
            ViewId::Invoke => Action::ViewInvoke,
            ViewId::Prompt => Action::ViewPrompt,
            ViewId::Decisions => Action::ViewDecisions,
            ViewId::Sessions => Action::ViewSessions,
            ViewId::Approvals => Action::ViewApprovals,
            ViewId::Lint => Action::ViewLint,
            ViewId::Diff => Action::ViewDiff,
            ViewId::Gateways => Action::ViewGateways,
        };
        self.key_label(action)
    }

    /// The first key of an action, for hints (`"k"`).
    pub(crate) fn key_label(&self, action: Action) -> String {
        self.binding(action)
            .and_then(|b| b.keys.first())
            .map(|k| k.to_string())
            .unwrap_or_else(|| "—".to_string())
    }

    /// Footer hints for a view: its own keys first, then the global ones.
    pub(crate) fn footer(&self, view: ViewId) -> Vec<(String, &'static str)> {
        self.footer_where(view, |_| true)
    }

    /// Footer hints for a view whose own keys are offered only where `offered` says they do
    /// something now (a view knows its selection; the table knows the keys).
    pub(crate) fn footer_where(
        &self,
        view: ViewId,
        offered: impl Fn(Action) -> bool,
    ) -> Vec<(String, &'static str)> {
        let own = self.bindings.iter().filter(|b| {
            !b.hint.is_empty() && !b.views.is_empty() && b.applies_in(view) && offered(b.action)
        });
        let global = self
            .bindings
            .iter()
            .filter(|b| !b.hint.is_empty() && b.views.is_empty());
        own.chain(global)
            .filter_map(|b| b.keys.first().map(|k| (k.to_string(), b.hint)))
            .collect()
    }

    /// The key table as Markdown (README and `?`).
    #[cfg(test)]
    pub(crate) fn markdown_table(&self) -> String {
        let mut out = String::from("| Keys | Action | What it does | Where |\n|---|---|---|---|\n");
        for b in &self.bindings {
            let keys = b
                .keys
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(" ");
            out.push_str(&format!(
                "| {keys} | `{}` | {} | {} |\n",
                b.name,
                b.description,
                b.views_label()
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn parses_and_displays_keys() {
        let k = KeySpec::parse("ctrl-c").unwrap();
        assert_eq!(
            k,
            KeySpec {
                code: KeyCode::Char('c'),
                mods: KeyModifiers::CONTROL
            }
        );
        assert_eq!(k.to_string(), "Ctrl-C");
        assert_eq!(KeySpec::parse("shift-tab").unwrap().code, KeyCode::BackTab);
        assert_eq!(KeySpec::parse("F5").unwrap().code, KeyCode::F(5));
        assert_eq!(KeySpec::parse("G").unwrap().code, KeyCode::Char('G'));
        assert!(KeySpec::parse("nonsense").is_err());
        assert!(KeySpec::parse("ctrl-").is_err());
    }

    #[test]
    fn shifted_characters_match_with_or_without_shift_flag() {
        let g = KeySpec::parse("G").unwrap();
        assert!(g.matches(&key(KeyCode::Char('G'), KeyModifiers::SHIFT)));
        assert!(g.matches(&key(KeyCode::Char('G'), KeyModifiers::NONE)));
        assert!(!g.matches(&key(KeyCode::Char('g'), KeyModifiers::NONE)));
    }

    #[test]
    fn view_specific_binding_wins() {
        let km = Keymap::default();
        let k = key(KeyCode::Char('k'), KeyModifiers::NONE);
        assert_eq!(km.lookup(ViewId::Router, &k), Some(Action::Up));
        assert_eq!(km.lookup(ViewId::Policy, &k), Some(Action::Up));
        let x = key(KeyCode::Char('x'), KeyModifiers::NONE);
        assert_eq!(km.lookup(ViewId::Router, &x), Some(Action::KillRun));
        // The Queue view kills a call with the Router view's kill key; clearing a lane is `X`.
        assert_eq!(km.lookup(ViewId::Queue, &x), Some(Action::KillRun));
        let big_x = key(KeyCode::Char('X'), KeyModifiers::SHIFT);
        assert_eq!(km.lookup(ViewId::Queue, &big_x), Some(Action::ClearLane));
        assert_eq!(km.lookup(ViewId::Router, &big_x), None);
        let slash = key(KeyCode::Char('/'), KeyModifiers::NONE);
        assert_eq!(km.lookup(ViewId::Router, &slash), Some(Action::Search));
        assert_eq!(km.lookup(ViewId::Policy, &slash), Some(Action::Search));
        assert_eq!(km.lookup(ViewId::Queue, &slash), None);
    }

    #[test]
    fn overrides_replace_keys_and_report_problems() {
        let mut o = BTreeMap::new();
        o.insert(
            "kill_run".to_string(),
            vec!["ctrl-k".to_string(), "bogus-key".to_string()],
        );
        o.insert("no_such_action".to_string(), vec!["x".to_string()]);
        let km = Keymap::with_overrides(&o);
        assert_eq!(
            km.lookup(
                ViewId::Router,
                &key(KeyCode::Char('k'), KeyModifiers::CONTROL)
            ),
            Some(Action::KillRun)
        );
        assert_eq!(
            km.lookup(ViewId::Router, &key(KeyCode::Char('k'), KeyModifiers::NONE)),
            Some(Action::Up)
        );
        assert_eq!(km.warnings.len(), 2, "{:?}", km.warnings);
        assert!(
            km.warnings
                .iter()
                .any(|w| w.contains("keys.no_such_action"))
        );
        assert!(km.warnings.iter().any(|w| w.contains("keys.kill_run[1]")));
    }

    #[test]
    fn footer_follows_the_table() {
        let km = Keymap::default();
        let footer = km.footer(ViewId::Router);
        assert_eq!(footer[0], ("/".to_string(), "search"));
        assert!(footer.iter().any(|(k, d)| k == "x" && *d == "kill"));
        assert!(footer.iter().any(|(k, d)| k == "q" && *d == "quit"));
        assert!(!footer.iter().any(|(_, d)| d.contains("lane")));
    }

    /// One convention: wherever a key works, it means the same action. A key bound to two
    /// actions (even in views that never meet) is a second meaning an operator must learn.
    #[test]
    fn a_key_means_one_action_in_every_view() {
        let km = Keymap::default();
        let mut meaning: std::collections::HashMap<KeySpec, (&str, Vec<ViewId>)> =
            std::collections::HashMap::new();
        let mut clashes = Vec::new();
        for b in &km.bindings {
            let views: Vec<ViewId> = ViewId::ALL
                .into_iter()
                .filter(|v| b.applies_in(*v))
                .collect();
            for k in &b.keys {
                match meaning.get(k) {
                    Some((other, where_)) if *other != b.name => clashes.push(format!(
                        "`{k}` is {other} in {where_:?} and {} in {views:?}",
                        b.name
                    )),
                    Some(_) => {}
                    None => {
                        meaning.insert(*k, (b.name, views.clone()));
                    }
                }
            }
        }
        assert!(clashes.is_empty(), "{clashes:#?}");
    }

    #[test]
    fn the_keys_that_used_to_clash_have_one_meaning() {
        let km = Keymap::default();
        let plain = |c: char| key(KeyCode::Char(c), KeyModifiers::NONE);
        for view in ViewId::ALL {
            for (c, allowed) in [
                ('a', Action::AllowOnce),
                ('r', Action::NewRun),
                ('v', Action::DiffVersion),
                ('/', Action::Search),
            ] {
                let got = km.lookup(view, &plain(c));
                assert!(
                    got.is_none() || got == Some(allowed),
                    "{c} in {view:?}: {got:?}"
                );
            }
            let enter = key(KeyCode::Enter, KeyModifiers::NONE);
            let got = km.lookup(view, &enter);
            assert!(
                got.is_none() || got == Some(Action::Open),
                "{view:?}: {got:?}"
            );
            // The config reloads with the same key everywhere.
            assert_eq!(
                km.lookup(view, &key(KeyCode::Char('R'), KeyModifiers::SHIFT)),
                Some(Action::ReloadConfig)
            );
            assert_eq!(
                km.lookup(view, &key(KeyCode::Char('J'), KeyModifiers::SHIFT)),
                Some(Action::DetailDown)
            );
            assert_eq!(
                km.lookup(view, &key(KeyCode::Down, KeyModifiers::SHIFT)),
                Some(Action::DetailDown)
            );
        }
    }

    #[test]
    fn no_key_means_two_things_in_one_view() {
        let km = Keymap::default();
        assert_eq!(km.conflicts(), Vec::<String>::new());
        assert!(km.warnings.is_empty(), "{:?}", km.warnings);
    }

    #[test]
    fn movement_keys_are_the_same_in_every_view() {
        let km = Keymap::default();
        let moves = [
            (KeyCode::Char('k'), Action::Up),
            (KeyCode::Up, Action::Up),
            (KeyCode::Char('j'), Action::Down),
            (KeyCode::Down, Action::Down),
            (KeyCode::PageUp, Action::PageUp),
            (KeyCode::PageDown, Action::PageDown),
            (KeyCode::Char('g'), Action::Top),
            (KeyCode::Home, Action::Top),
            (KeyCode::Char('G'), Action::Bottom),
            (KeyCode::End, Action::Bottom),
        ];
        for view in ViewId::ALL {
            for (code, action) in moves {
                assert_eq!(
                    km.lookup(view, &key(code, KeyModifiers::NONE)),
                    Some(action),
                    "{code:?} in {view:?}"
                );
            }
        }
    }

    #[test]
    fn an_override_that_takes_a_used_key_is_reported() {
        let mut o = BTreeMap::new();
        o.insert("kill_run".to_string(), vec!["j".to_string()]);
        let km = Keymap::with_overrides(&o);
        assert!(
            km.warnings
                .iter()
                .any(|w| w.contains("`j` means both down and kill_run in the Router view")),
            "{:?}",
            km.warnings
        );
    }

    #[test]
    fn the_table_names_exactly_the_actions_the_config_check_accepts() {
        let names: Vec<&str> = BINDINGS.iter().map(|b| b.name).collect();
        assert_eq!(names, crate::config::keys::ACTION_NAMES);
    }

    #[test]
    fn every_action_has_a_unique_name_and_a_key() {
        let mut names = std::collections::HashSet::new();
        for b in BINDINGS {
            assert!(names.insert(b.name), "duplicate {}", b.name);
            assert!(!b.keys.is_empty());
            for k in b.keys {
                assert!(KeySpec::parse(k).is_ok(), "{k}");
            }
        }
    }
}
