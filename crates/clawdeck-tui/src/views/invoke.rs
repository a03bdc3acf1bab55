//! Invoke view: pick a tool (hidden ones greyed with the reason; they cannot run), edit its
//! parameters as JSON in a ratatui-textarea editor prefilled with a skeleton from the schema,
//! see live validation with the error path, run it through the real pipeline (intent), and see
//! the result with a history of calls to re-run or edit.
//!
//! Large parameters stay responsive: a paste goes in as one edit, and a large text is validated
//! once typing pauses (not on every key); the editor takes at most `MAX_PARAMS_BYTES`. The
//! result wraps (`w` toggles; off, it scrolls sideways) and scrolls with PageUp / PageDown.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, ListItem, ListState, Paragraph, StatefulWidget, Widget};
use ratatui_textarea::TextArea;
use serde_json::{Map, Value};

use super::ViewCtx;
use super::policy_exec::ExecCheck;
use crate::clock::short_duration;
use crate::event::AppEvent;
use crate::keymap::Action;
use crate::pipeline::CallOutcome;
use crate::policy::Resolution;
use crate::stages::validate::ParamValidator;
use crate::theme;
use crate::tool::ContentBlock;
use crate::widgets::table::selection_list;
use crate::widgets::text_pane::TextPane;

/// The most parameter text the editor holds; a paste that would pass it is refused (say so).
pub(crate) const MAX_PARAMS_BYTES: usize = 1024 * 1024;
/// Texts up to this size are validated on every edit; larger ones when typing pauses.
pub(crate) const EAGER_VALIDATION_BYTES: usize = 16 * 1024;
/// How long typing must pause before a large text is validated.
pub(crate) const VALIDATION_QUIET: Duration = Duration::from_millis(300);
/// Result lines kept for display (the rest is counted, not drawn).
const RESULT_LINES: usize = 20_000;

/// How a result line is marked in its gutter.
#[derive(Clone, Copy)]
enum ResultKind {
    Stdout,
    Stderr,
    Note,
}

/// Builds the result pane's lines: a gutter per kind, text cleaned of control sequences.
#[derive(Default)]
struct ResultLines {
    lines: Vec<Line<'static>>,
    omitted: usize,
}

impl ResultLines {
    fn push(&mut self, kind: ResultKind, text: &str) {
        let (gutter, gutter_style, style) = match kind {
            ResultKind::Stdout => (" │", theme::dim(), Style::default()),
            ResultKind::Stderr => ("E│", theme::error(), Style::default()),
            ResultKind::Note => (
                "»│",
                theme::warning(),
                theme::warning().add_modifier(ratatui::style::Modifier::ITALIC),
            ),
        };
        let clean = crate::sanitize::plain(text).replace('\t', "    ");
        for line in clean.lines() {
            if self.lines.len() >= RESULT_LINES {
                self.omitted += 1;
                continue;
            }
            self.lines.push(Line::from(vec![
                Span::styled(gutter, gutter_style),
                Span::styled(line.to_string(), style),
            ]));
        }
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        if self.omitted > 0 {
            let note = format!(
                "… {} more lines not shown (the pane keeps {RESULT_LINES})",
                self.omitted
            );
            self.lines.push(Line::styled(note, theme::warning()));
        }
        self.lines
    }
}

/// A tool as the picker shows it.
#[derive(Debug, Clone)]
pub(crate) struct ToolChoice {
    pub(crate) name: String,
    pub(crate) visible: bool,
    /// Why it is hidden (the removing layer's reason).
    pub(crate) reason: Option<String>,
    pub(crate) schema: Value,
}

/// One call made from this view.
#[derive(Debug, Clone)]
pub(crate) struct HistoryEntry {
    pub(crate) id: u64,
    pub(crate) tool: String,
    pub(crate) params: Value,
    /// The gateway it ran on (`tools.invoke`); None: here, through the pipeline.
    pub(crate) via: Option<String>,
    /// None while running.
    pub(crate) outcome: Option<Arc<CallOutcome>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Focus {
    Tools,
    Editor,
    History,
}

pub(crate) struct InvokeView {
    pub(crate) tools: Vec<ToolChoice>,
    pub(crate) selected: usize,
    pub(crate) focus: Focus,
    /// The tool whose parameters are in the editor.
    pub(crate) editing: Option<String>,
    pub(crate) editor: TextArea<'static>,
    /// Live validation: `Ok` or the problems, each naming its path.
    pub(crate) validation: Result<(), Vec<String>>,
    pub(crate) history: Vec<HistoryEntry>,
    pub(crate) history_selected: usize,
    /// The result pane shows this call.
    pub(crate) shown: Option<u64>,
    /// The shown call's result: wrapped or scrolled sideways, scrolled by pages.
    pub(crate) result: TextPane,
    /// When the editor's text changed and has not been validated since.
    validation_due: Option<Instant>,
    /// How many times the editor's text was parsed and checked (tests bound the work).
    pub(crate) validations: u64,
    validators: HashMap<String, Option<Arc<ParamValidator>>>,
    next_id: u64,
    /// Gateways a call can be sent to instead (`tools.invoke`).
    pub(crate) gateways: Vec<String>,
    /// Where calls run: None here (the pipeline), or the named gateway.
    pub(crate) via: Option<String>,
    tools_area: Rect,
    history_area: Rect,
    /// The command line exec's parameters hold (set when they are checked), the one last sent
    /// to be judged, and its verdict: what OpenClaw's exec would do with it.
    exec_wanted: Option<String>,
    exec_asked: Option<String>,
    pub(crate) exec_check: Option<ExecCheck>,
}

impl Default for InvokeView {
    fn default() -> Self {
        InvokeView {
            tools: Vec::new(),
            selected: 0,
            focus: Focus::Tools,
            editing: None,
            editor: TextArea::default(),
            validation: Ok(()),
            history: Vec::new(),
            history_selected: 0,
            shown: None,
            // Wrapped rows continue under the text, not the gutter.
            result: TextPane::with_hang(2),
            validation_due: None,
            validations: 0,
            validators: HashMap::new(),
            next_id: 1,
            gateways: Vec::new(),
            via: None,
            tools_area: Rect::default(),
            history_area: Rect::default(),
            exec_wanted: None,
            exec_asked: None,
            exec_check: None,
        }
    }
}

/// A parameter skeleton: required properties with a placeholder of their type (the default,
/// the first enum value, "", 0, false, [], {}); all properties when none is required.
pub(crate) fn skeleton(schema: &Value) -> Value {
    let props = schema.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    if let Some(props) = props {
        for (name, prop) in props {
            if required.is_empty() || required.contains(&name.as_str()) {
                out.insert(name.clone(), placeholder(prop));
            }
        }
    }
    Value::Object(out)
}

fn placeholder(prop: &Value) -> Value {
    if let Some(d) = prop.get("default") {
        return d.clone();
    }
    if let Some(first) = prop
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    let ty = match prop.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("string"),
        _ => "string",
    };
    match ty {
        "integer" | "number" => Value::from(0),
        "boolean" => Value::Bool(false),
        "array" => Value::Array(Vec::new()),
        "object" => skeleton(prop),
        _ => Value::String(String::new()),
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// What the result pane says about one call.
fn result_lines(entry: &HistoryEntry, out: &mut ResultLines) {
    let via = match &entry.via {
        Some(g) => format!(" (on gateway {g}, tools.invoke)"),
        None => String::new(),
    };
    out.push(
        ResultKind::Note,
        &format!("#{} {} {}{via}", entry.id, entry.tool, entry.params),
    );
    let Some(outcome) = &entry.outcome else {
        out.push(ResultKind::Note, "running…");
        return;
    };
    match outcome.as_ref() {
        CallOutcome::Completed {
            result,
            is_error,
            lane,
            duration,
            hooks,
            ..
        } => {
            let verdict = if *is_error {
                "✗ tool error"
            } else {
                "✓ ok"
            };
            let status = result
                .status()
                .map(|s| format!(", status {s}"))
                .unwrap_or_default();
            out.push(
                ResultKind::Note,
                &format!(
                    "{verdict}{status} in {} (lane {lane}, {} hooks)",
                    short_duration(*duration),
                    hooks.len()
                ),
            );
            let kind = if *is_error {
                ResultKind::Stderr
            } else {
                ResultKind::Stdout
            };
            for block in &result.content {
                match block {
                    ContentBlock::Text { text } => {
                        let shown = match serde_json::from_str::<Value>(text) {
                            Ok(v) if v.is_object() || v.is_array() => pretty(&v),
                            _ => text.clone(),
                        };
                        out.push(kind, &shown);
                    }
                    ContentBlock::Image { data, mime_type } => {
                        let bytes = data.len() / 4 * 3;
                        out.push(
                            ResultKind::Note,
                            &format!(
                                "image: {mime_type}, about {} KB ({} base64 chars)",
                                bytes / 1024,
                                data.len()
                            ),
                        );
                    }
                }
            }
            if !result.details.is_null() {
                out.push(ResultKind::Note, "details:");
                out.push(ResultKind::Stdout, &pretty(&result.details));
            }
        }
        other => {
            let label = match other {
                _ if entry.via.is_some() && !matches!(other, CallOutcome::Cancelled { .. }) => {
                    "✗ not run by the gateway"
                }
                CallOutcome::Refused { .. } => "✗ refused by policy",
                CallOutcome::InvalidParams { .. } => "✗ invalid parameters",
                CallOutcome::Blocked { .. } => "✗ blocked by a hook",
                CallOutcome::Cancelled { .. } => "∅ cancelled",
                _ => "✗ unknown tool",
            };
            out.push(ResultKind::Note, label);
            out.push(ResultKind::Stderr, &other.message());
        }
    }
}

impl InvokeView {
    /// Refreshes the tool list from a policy result (visibility and reasons) and the registry's
    /// schemas.
    pub(crate) fn set_tools(
        &mut self,
        resolution: &Resolution,
        registry: &crate::catalog::Registry,
    ) {
        let keep = self.tools.get(self.selected).map(|t| t.name.clone());
        self.tools = resolution
            .tools
            .iter()
            .map(|t| ToolChoice {
                name: t.name.clone(),
                visible: t.visible,
                reason: t
                    .removed_by
                    .as_ref()
                    .map(|r| format!("{}: {}", r.layer.id(), r.reason)),
                schema: registry
                    .get(&t.name)
                    .map(|s| s.parameters.clone())
                    .unwrap_or(Value::Null),
            })
            .collect();
        if let Some(name) = keep
            && let Some(i) = self.tools.iter().position(|t| t.name == name)
        {
            self.selected = i;
        }
        self.selected = self.selected.min(self.tools.len().saturating_sub(1));
        self.validators.clear();
        self.validate();
    }

    fn tool(&self, name: &str) -> Option<&ToolChoice> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// Loads a tool and parameters into the editor.
    pub fn load(&mut self, tool: &str, params: &Value) {
        self.editing = Some(tool.to_string());
        let text = pretty(params);
        self.editor = TextArea::new(text.lines().map(str::to_string).collect());
        self.editor.set_cursor_line_style(Style::default());
        self.focus = Focus::Editor;
        self.validate();
    }

    /// Bytes of text in the editor (newlines counted), without joining the lines.
    pub(crate) fn editor_bytes(&self) -> usize {
        let lines = self.editor.lines();
        lines.iter().map(String::len).sum::<usize>() + lines.len().saturating_sub(1)
    }

    /// The text changed: small texts are checked now, large ones once typing pauses.
    fn edited(&mut self, now: Instant) {
        self.validation_due = Some(now);
        if self.editor_bytes() <= EAGER_VALIDATION_BYTES {
            self.validate();
        }
    }

    /// Validates a pending large text once typing has paused (called before each draw).
    pub(crate) fn validate_if_due(&mut self, now: Instant) {
        if let Some(since) = self.validation_due
            && now.saturating_duration_since(since) >= VALIDATION_QUIET
        {
            self.validate();
        }
    }

    /// Whether a validation waits for typing to pause (the App redraws on its ticks).
    pub(crate) fn validation_pending(&self) -> bool {
        self.validation_due.is_some()
    }

    /// The editor's text parsed and checked against the schema.
    pub(crate) fn validate(&mut self) {
        self.validation_due = None;
        self.validations += 1;
        let Some(tool) = self.editing.clone() else {
            self.validation = Ok(());
            return;
        };
        let text = self.editor.lines().join("\n");
        let params: Value = match serde_json::from_str::<Value>(&text) {
            Ok(v) => {
                self.exec_wanted = (tool == "exec")
                    .then(|| v.get("command").and_then(Value::as_str))
                    .flatten()
                    .filter(|c| !c.trim().is_empty())
                    .map(str::to_string);
                v
            }
            Err(e) => {
                self.validation = Err(vec![format!(
                    "JSON: line {} column {}: {e}",
                    e.line(),
                    e.column()
                )]);
                return;
            }
        };
        let schema = self
            .tool(&tool)
            .map(|t| t.schema.clone())
            .unwrap_or(Value::Null);
        let validator = self
            .validators
            .entry(tool.clone())
            .or_insert_with(|| ParamValidator::new(&tool, &schema).ok().map(Arc::new))
            .clone();
        self.validation = match validator {
            Some(v) => {
                let problems = v.problems(&params);
                if problems.is_empty() {
                    Ok(())
                } else {
                    Err(problems)
                }
            }
            None => Err(vec![format!("the schema of {tool} cannot be compiled")]),
        };
    }

    pub fn running(&self) -> usize {
        self.history.iter().filter(|h| h.outcome.is_none()).count()
    }

    /// The next target: here, then each gateway, then here again.
    fn next_target(&mut self, ctx: &ViewCtx) {
        if self.gateways.is_empty() {
            ctx.status(
                "tools run here only: no gateway configured (clawdeck.json5 `gateways`, or OPENCLAW_GATEWAY_URL)",
            );
            return;
        }
        let at = self
            .via
            .as_ref()
            .and_then(|g| self.gateways.iter().position(|x| x == g));
        self.via = match at {
            None => self.gateways.first().cloned(),
            Some(i) => self.gateways.get(i + 1).cloned(),
        };
        ctx.status(match &self.via {
            Some(g) => format!(
                "calls run on gateway {g} (tools.invoke; its policy decides, refusals shown as refusals)"
            ),
            None => "calls run here (policy, hooks and the lane queue)".to_string(),
        });
    }

    /// Sends the call in the editor (or the given history entry) to the App.
    fn run(&mut self, tool: &str, params: Value, ctx: &ViewCtx) {
        if let Some(gateway) = self.via.clone() {
            // The gateway's own policy decides; what clawdeck hides here may run there.
            let id = self.push_call(tool, &params, Some(gateway.clone()));
            ctx.send(AppEvent::InvokeGateway {
                call: id,
                gateway,
                tool: tool.to_string(),
                params,
            });
            return;
        }
        match self.tool(tool) {
            Some(t) if !t.visible => {
                ctx.status(format!(
                    "{tool} is hidden in this context and cannot run ({})",
                    t.reason.as_deref().unwrap_or("policy")
                ));
                return;
            }
            None => {
                ctx.status(format!("unknown tool {tool}"));
                return;
            }
            Some(_) => {}
        }
        let id = self.push_call(tool, &params, None);
        ctx.send(AppEvent::Invoke {
            call: id,
            tool: tool.to_string(),
            params,
        });
    }

    /// Records a call in the history (running) and shows it; returns its number.
    fn push_call(&mut self, tool: &str, params: &Value, via: Option<String>) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.history.push(HistoryEntry {
            id,
            tool: tool.to_string(),
            params: params.clone(),
            via,
            outcome: None,
        });
        self.history_selected = self.history.len() - 1;
        self.show(id);
        id
    }

    fn run_editor(&mut self, ctx: &ViewCtx) {
        let Some(tool) = self.editing.clone() else {
            ctx.status("pick a tool first (Enter on a tool)");
            return;
        };
        self.validate();
        if let Err(problems) = &self.validation {
            ctx.status(format!("not run: {}", problems.join("; ")));
            return;
        }
        let text = self.editor.lines().join("\n");
        match serde_json::from_str::<Value>(&text) {
            Ok(params) => self.run(&tool, params, ctx),
            Err(e) => ctx.status(format!("not run: {e}")),
        }
    }

    /// A call finished.
    pub fn finish(&mut self, id: u64, outcome: CallOutcome) -> bool {
        let Some(entry) = self.history.iter_mut().find(|h| h.id == id) else {
            return false;
        };
        entry.outcome = Some(Arc::new(outcome));
        if self.shown == Some(id) {
            self.show(id);
        }
        true
    }

    /// Fills the result pane with a call's outcome.
    fn show(&mut self, id: u64) {
        if self.shown != Some(id) {
            // Another call: start at its top.
            self.result.scroll(Action::Top);
        }
        self.shown = Some(id);
        let mut out = ResultLines::default();
        if let Some(entry) = self.history.iter().find(|h| h.id == id) {
            result_lines(entry, &mut out);
        }
        self.result.set_lines(out.finish(), Vec::new());
    }

    /// Whether the parameter editor has focus (a draft Ctrl-C would lose).
    pub(crate) fn is_editing(&self) -> bool {
        self.focus == Focus::Editor
    }

    /// Keys for the editor while it has focus; true when consumed.
    pub(crate) fn handle_input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        if self.focus != Focus::Editor {
            return false;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => self.focus = Focus::Tools,
            KeyCode::F(5) => self.run_editor(ctx),
            KeyCode::Char('r') if ctrl => self.run_editor(ctx),
            KeyCode::Tab => {
                self.editor.insert_str("  ");
                self.edited(ctx.clock.now());
            }
            _ => {
                if self.editor.input(*key) {
                    self.edited(ctx.clock.now());
                }
            }
        }
        true
    }

    /// A bracketed paste: one edit (one undo step, one validation at most), line ends as the
    /// editor knows them; refused with a message when the text would pass `MAX_PARAMS_BYTES`.
    pub(crate) fn paste(&mut self, text: &str, ctx: &ViewCtx) -> bool {
        if self.focus != Focus::Editor {
            return false;
        }
        let total = self.editor_bytes() + text.len();
        if total > MAX_PARAMS_BYTES {
            ctx.status(format!(
                "paste refused: the parameters would be {} KiB, over the editor's {} KiB cap \
                 (`clawdeck invoke TOOL --params @file` takes any size)",
                total.div_ceil(1024),
                MAX_PARAMS_BYTES / 1024
            ));
            return true;
        }
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        self.editor.insert_str(&text);
        self.edited(ctx.clock.now());
        true
    }

    pub(crate) fn handle_action(&mut self, action: Action, ctx: &ViewCtx) -> bool {
        match (self.focus, action) {
            (_, Action::History) => {
                self.focus = if self.focus == Focus::History {
                    Focus::Tools
                } else {
                    Focus::History
                };
                if self.focus == Focus::History
                    && let Some(h) = self.history.get(self.history_selected)
                {
                    let id = h.id;
                    self.show(id);
                }
            }
            (Focus::Tools, Action::Up | Action::Down | Action::Top | Action::Bottom) => {
                if let Some(to) =
                    crate::widgets::list::moved(self.selected, action, self.tools.len(), 1)
                {
                    self.selected = to;
                }
            }
            (_, Action::PageUp | Action::PageDown) => {
                self.result.scroll(action);
            }
            // The result is the view's lower pane.
            (_, Action::DetailUp | Action::DetailDown) => {
                let half = (self.result.height() / 2).max(1);
                self.result.scroll_rows(action == Action::DetailUp, half);
            }
            (_, Action::InvokeTarget) => self.next_target(ctx),
            (_, Action::ToggleWrap) => {
                let on = self.result.toggle_wrap();
                ctx.status(if on {
                    "the result wraps long lines".to_string()
                } else {
                    format!(
                        "the result scrolls sideways ({} / {})",
                        ctx.keymap.key_label(Action::ScrollLeft),
                        ctx.keymap.key_label(Action::ScrollRight)
                    )
                });
            }
            (_, Action::ScrollLeft | Action::ScrollRight) => {
                self.result
                    .scroll_sideways(action == Action::ScrollRight, 8);
            }
            (Focus::Tools, Action::Open) => {
                let Some(tool) = self.tools.get(self.selected).cloned() else {
                    return true;
                };
                if !tool.visible {
                    ctx.status(format!(
                        "{} is hidden here and cannot run: {}",
                        tool.name,
                        tool.reason.unwrap_or_default()
                    ));
                }
                if self.editing.as_deref() == Some(tool.name.as_str()) {
                    self.focus = Focus::Editor;
                } else {
                    self.load(&tool.name, &skeleton(&tool.schema));
                }
            }
            (Focus::Tools, Action::RunTool) => self.run_editor(ctx),
            (Focus::History, Action::Up | Action::Down | Action::Top | Action::Bottom) => {
                let n = self.history.len();
                if let Some(to) = crate::widgets::list::moved(self.history_selected, action, n, 1) {
                    self.history_selected = to;
                }
                if let Some(h) = self.history.get(self.history_selected) {
                    let id = h.id;
                    self.show(id);
                }
            }
            (Focus::History, Action::Open) => {
                if let Some(h) = self.history.get(self.history_selected).cloned() {
                    self.load(&h.tool, &h.params);
                }
            }
            (Focus::History, Action::RunTool) => {
                if let Some(h) = self.history.get(self.history_selected).cloned() {
                    self.run(&h.tool, h.params, ctx);
                }
            }
            _ => return false,
        }
        true
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        let inside = |r: Rect| crate::widgets::mouse_in(r, mouse);
        let (area, len) = if inside(self.tools_area) {
            (self.tools_area, self.tools.len())
        } else if inside(self.history_area) {
            (self.history_area, self.history.len())
        } else {
            return false;
        };
        let in_tools = area == self.tools_area;
        let current = if in_tools {
            self.selected
        } else {
            self.history_selected
        };
        let next = match mouse.kind {
            MouseEventKind::Down(_) if mouse.row > area.y => {
                let rows = area.height.saturating_sub(2) as usize;
                let offset = (current + 1).saturating_sub(rows.max(1));
                offset + (mouse.row - area.y - 1) as usize
            }
            MouseEventKind::ScrollUp => current.saturating_sub(1),
            MouseEventKind::ScrollDown => current + 1,
            _ => return false,
        };
        if next < len {
            if in_tools {
                self.selected = next;
                self.focus = Focus::Tools;
            } else {
                self.history_selected = next;
                self.focus = Focus::History;
                let id = self.history[next].id;
                self.show(id);
            }
        }
        true
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        self.validate_if_due(ctx.clock.now());
        // exec's command changed since it was last judged: ask again (the App runs the job).
        if self.editing.as_deref() != Some("exec") {
            self.exec_wanted = None;
        }
        if self.exec_wanted != self.exec_asked {
            self.exec_asked = self.exec_wanted.clone();
            ctx.send(crate::event::AppEvent::JudgeInvokeCommand(
                self.exec_wanted.clone(),
            ));
        }
        let [left, right] =
            Layout::horizontal([Constraint::Length(40), Constraint::Fill(1)]).areas(area);
        let [tools_area, history_area] =
            Layout::vertical([Constraint::Fill(2), Constraint::Fill(1)]).areas(left);
        let [editor_area, result_area] =
            Layout::vertical([Constraint::Fill(1), Constraint::Fill(1)]).areas(right);
        self.tools_area = tools_area;
        self.history_area = history_area;
        self.render_tools(tools_area, buf);
        self.render_history(history_area, buf, ctx);
        self.render_editor(editor_area, buf, ctx);
        self.render_result(result_area, buf, ctx);
    }

    fn focus_style(&self, pane: Focus) -> Style {
        if self.focus == pane {
            theme::accent()
        } else {
            Style::default()
        }
    }

    /// The tools, hidden ones marked with why.
    fn render_tools(&self, tools_area: Rect, buf: &mut Buffer) {
        let items: Vec<ListItem> = self
            .tools
            .iter()
            .map(|t| {
                if t.visible {
                    ListItem::new(Line::raw(t.name.clone()))
                } else {
                    let reason = t.reason.as_deref().unwrap_or("hidden");
                    ListItem::new(Line::from(vec![
                        Span::styled(format!("⊘ {}", t.name), theme::hidden()),
                        Span::styled(format!(" {reason}"), theme::dim()),
                    ]))
                }
            })
            .collect();
        let visible = self.tools.iter().filter(|t| t.visible).count();
        let title = match &self.via {
            None => format!(" Tools ({visible} runnable, ⊘ hidden) "),
            Some(g) => format!(" Tools · via gateway {g} "),
        };
        let mut state = ListState::default().with_selected(Some(self.selected));
        StatefulWidget::render(
            selection_list(
                items,
                Block::bordered()
                    .title(title)
                    .border_style(self.focus_style(Focus::Tools)),
            ),
            tools_area,
            buf,
            &mut state,
        );
    }

    /// The calls made from this view and how each ended.
    fn render_history(&self, history_area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let items: Vec<ListItem> = self
            .history
            .iter()
            .map(|h| {
                let (mark, style) = match h.outcome.as_deref() {
                    None => ("● running", theme::accent()),
                    Some(CallOutcome::Completed {
                        is_error: false, ..
                    }) => ("✓", theme::ok()),
                    Some(CallOutcome::Cancelled { .. }) => ("∅", theme::warning()),
                    Some(_) => ("✗", theme::error()),
                };
                let via = h.via.as_ref().map(|g| format!(" @{g}")).unwrap_or_default();
                ListItem::new(Line::from(vec![
                    Span::raw(format!("#{} ", h.id)),
                    Span::styled(mark, style),
                    Span::styled(via, theme::accent()),
                    Span::raw(format!(" {} {}", h.tool, h.params)),
                ]))
            })
            .collect();
        let block = Block::bordered()
            .title(format!(
                " History ({}) · {} re-runs, {} edits ",
                self.history.len(),
                ctx.keymap.key_label(Action::RunTool),
                ctx.keymap.key_label(Action::Open)
            ))
            .border_style(self.focus_style(Focus::History));
        if items.is_empty() {
            Paragraph::new(Line::styled("no calls yet", theme::dim()))
                .block(block)
                .render(history_area, buf);
        } else {
            let mut state = ListState::default().with_selected(Some(self.history_selected));
            StatefulWidget::render(selection_list(items, block), history_area, buf, &mut state);
        }
    }

    /// The editor's bottom line: how to run, or, with exec's parameters in it, what OpenClaw's
    /// exec would do with the command first.
    fn editor_footer(&self, ctx: &ViewCtx) -> Line<'static> {
        let run = ctx.keymap.key_label(Action::RunTool);
        match self
            .exec_check
            .as_ref()
            .filter(|_| self.editing.as_deref() == Some("exec"))
        {
            Some(check) => {
                let mut line = check.summary_line();
                line.spans
                    .push(Span::styled(format!("· {run} runs "), theme::dim()));
                line
            }
            None => Line::styled(
                format!(" {run} runs · Esc leaves the editor "),
                theme::dim(),
            ),
        }
    }

    /// The parameter editor with the validation verdict, or why the selected tool is hidden.
    fn render_editor(&mut self, editor_area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let (verdict, verdict_style) = match (&self.editing, &self.validation) {
            (None, _) => ("pick a tool and press Enter".to_string(), theme::dim()),
            (Some(_), _) if self.validation_due.is_some() => (
                format!(
                    "… checked when typing pauses ({} KiB)",
                    self.editor_bytes().div_ceil(1024)
                ),
                theme::dim(),
            ),
            (Some(_), Ok(())) => ("✓ valid".to_string(), theme::ok()),
            (Some(_), Err(p)) => (format!("✗ {}", p.join("; ")), theme::error()),
        };
        let editing = self.editing.clone().unwrap_or_else(|| "-".to_string());
        let block = Block::bordered()
            .title(Line::from(vec![
                Span::raw(format!(" Parameters of {editing} · ")),
                Span::styled(verdict, verdict_style),
                Span::raw(" "),
            ]))
            .title_bottom(self.editor_footer(ctx))
            .border_style(self.focus_style(Focus::Editor));
        if self.editing.is_some() {
            self.editor.set_block(block);
            self.editor
                .set_cursor_style(if self.focus == Focus::Editor {
                    theme::selected()
                } else {
                    Style::default()
                });
            Widget::render(&self.editor, editor_area, buf);
        } else {
            // Nothing loaded: the selected tool's reason in full when it is hidden (the list
            // has room for its start only).
            let inner = block.inner(editor_area);
            block.render(editor_area, buf);
            if let Some(tool) = self.tools.get(self.selected).filter(|t| !t.visible) {
                Paragraph::new(vec![
                    Line::styled(format!("⊘ {} is hidden here", tool.name), theme::error()),
                    Line::raw(tool.reason.clone().unwrap_or_default()),
                ])
                .wrap(ratatui::widgets::Wrap { trim: false })
                .render(inner, buf);
            }
        }
    }

    /// The shown call's result (or why tools cannot run here).
    fn render_result(&mut self, result_area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let mut block = Block::bordered().title(match self.shown {
            Some(id) => format!(" Result of call #{id} "),
            None => " Result ".to_string(),
        });
        if self.shown.is_some() {
            self.result.layout(block.inner(result_area));
            block = block.title_bottom(Line::styled(
                format!(
                    " {} · {} {} ",
                    self.result.position_label().unwrap_or_default(),
                    ctx.keymap.key_label(Action::ToggleWrap),
                    if self.result.wrap {
                        "wrap on"
                    } else {
                        "wrap off"
                    }
                ),
                theme::dim(),
            ));
        }
        let inner = block.inner(result_area);
        block.render(result_area, buf);
        if self.shown.is_some() {
            self.result.render(inner, buf);
        } else {
            buf.set_string(inner.x, inner.y, "no call selected", theme::dim());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn skeleton_fills_required_with_typed_placeholders() {
        let schema = json!({
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "limit": {"type": "integer"},
                "mode": {"type": "string", "enum": ["a", "b"]},
                "flag": {"type": ["boolean", "null"]},
                "opt": {"type": "string"}
            },
            "required": ["path", "limit", "mode", "flag"]
        });
        assert_eq!(
            skeleton(&schema),
            json!({"path": "", "limit": 0, "mode": "a", "flag": false})
        );
        let none_required =
            json!({"type": "object", "properties": {"a": {"type": "array"}, "b": {"default": 3}}});
        assert_eq!(skeleton(&none_required), json!({"a": [], "b": 3}));
    }
}
