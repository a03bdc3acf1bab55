//! Policy view: every tool as a row, the owner gate and the nine layers as columns, each cell
//! kept / removed / skipped (coloured and marked by symbol), a filter, "hidden only", and the
//! selected tool's path through the layers with the removing rule, the pattern as written, what
//! it expanded from, the config path, and the warnings of each layer.
//!
//! The view only renders the engine's `Resolution`; it never decides anything itself. With a
//! gateway session picked (`s`), a verdict column compares each tool with the session's real
//! `tools.effective` (see `policy_verdicts`).

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget, Wrap};

use super::ViewCtx;
use super::policy_exec::ExecCheck;
use super::policy_verdicts::{SessionCompare, VERDICT_COLUMN};
use crate::keymap::Action;
use crate::policy::{Decision, LayerDecision, LayerId, RemovalKind, Resolution, ToolTrace};
use crate::theme;
use crate::widgets::detail_pane::DetailPane;
use crate::widgets::line_input::{InputOutcome, LineInput};
use crate::widgets::list::pick_row;
use crate::widgets::picker::{Choice, PickOutcome, Picker};
use crate::widgets::table::{list_table, render_selected};

/// Separates gateway and session key in a session picker choice's value.
const PICK_SEPARATOR: char = '\u{1f}';

#[derive(Debug, Default)]
pub(crate) struct PolicyView {
    pub(crate) resolution: Option<std::sync::Arc<Resolution>>,
    /// The engine refused the context (unknown agent, ...); the last good resolution stays.
    pub(crate) error: Option<String>,
    pub(crate) filter: LineInput,
    pub(crate) filter_editing: bool,
    pub(crate) hidden_only: bool,
    /// Index into the filtered rows.
    pub(crate) selected: usize,
    offset: usize,
    table_area: Rect,
    /// The gateway session compared with (`s`); None: no verdict column.
    pub(crate) session: Option<SessionCompare>,
    /// The session picker, while open.
    pub(crate) session_picker: Option<Picker>,
    /// The gateway a typed session key is asked of.
    picker_gateway: Option<String>,
    /// The command line `!` judges (exec's verdict under its layers), and its input while open.
    pub(crate) exec_check: Option<ExecCheck>,
    pub(crate) exec_input: Option<LineInput>,
    /// The selected tool's path through the layers.
    detail: DetailPane,
    /// Layer columns scrolled away on the left, and how many fit at the last draw.
    pub(crate) layer_offset: usize,
    layer_columns: usize,
}

/// The symbol and style of a cell. Symbols carry the meaning without colour: `✓` kept,
/// `✗` removed here first, `×` would also remove (an earlier layer already did), `·` skipped.
pub(crate) fn cell(d: &LayerDecision) -> (&'static str, Style) {
    match (d.decision, d.reached) {
        (Decision::Kept, _) => ("✓", theme::ok()),
        (Decision::Removed, true) => ("✗", theme::error().add_modifier(Modifier::BOLD)),
        (Decision::Removed, false) => ("×", theme::error().add_modifier(Modifier::DIM)),
        (Decision::Skipped, _) => ("·", theme::dim()),
    }
}

impl PolicyView {
    pub(crate) fn set_resolution(&mut self, resolution: std::sync::Arc<Resolution>) {
        let keep = self.selected_tool().map(|t| t.name.clone());
        self.resolution = Some(resolution);
        self.error = None;
        if let Some(name) = keep
            && let Some(i) = self.rows().iter().position(|t| t.name == name)
        {
            self.selected = i;
        }
        self.clamp();
    }

    /// The rows after the filter and the hidden-only toggle.
    pub fn rows(&self) -> Vec<&ToolTrace> {
        let Some(res) = &self.resolution else {
            return Vec::new();
        };
        let needle = self.filter.text.trim().to_lowercase();
        res.tools
            .iter()
            .filter(|t| !self.hidden_only || !t.visible)
            .filter(|t| {
                needle.is_empty()
                    || t.name.contains(&needle)
                    || t.groups.iter().any(|g| g.contains(&needle))
                    || t.plugin_id.as_deref().is_some_and(|p| p.contains(&needle))
            })
            .collect()
    }

    pub(crate) fn selected_tool(&self) -> Option<&ToolTrace> {
        self.rows().get(self.selected).copied()
    }

    fn clamp(&mut self) {
        let n = self.rows().len();
        self.selected = self.selected.min(n.saturating_sub(1));
    }

    /// Selects exec, whose detail shows the verdict (when the filter lets it through).
    fn select_exec(&mut self) {
        if let Some(i) = self.rows().iter().position(|t| t.name == "exec") {
            self.selected = i;
        }
    }

    /// Opens the session picker over `sessions` (gateway, key, agent): the first choice clears
    /// the comparison; a typed key is asked of `typed_gateway`.
    pub(crate) fn open_session_picker(
        &mut self,
        sessions: &[(String, String, String)],
        typed_gateway: Option<String>,
    ) {
        let mut choices = vec![Choice {
            value: None,
            label: "none (no verdict column)".to_string(),
        }];
        choices.extend(sessions.iter().map(|(gateway, key, agent)| Choice {
            value: Some(format!("{gateway}{PICK_SEPARATOR}{key}")),
            label: format!("{key} · agent {agent} · {gateway}"),
        }));
        let current = self
            .session
            .as_ref()
            .map(|s| format!("{}{PICK_SEPARATOR}{}", s.gateway, s.session_key));
        let mut picker = Picker::new(
            "Compare with a gateway session (type a key to ask for another)",
            choices,
            current.as_deref(),
        );
        if let Some(g) = &typed_gateway {
            picker.title = format!("{} · typed keys go to {g}", picker.title);
        }
        self.session_picker = Some(picker);
        self.picker_gateway = typed_gateway;
    }

    fn session_picker_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) {
        let Some(picker) = self.session_picker.as_mut() else {
            return;
        };
        match picker.handle_key(key) {
            PickOutcome::Pending => return,
            PickOutcome::Cancelled => {}
            PickOutcome::Picked(None) => {
                ctx.send(crate::event::AppEvent::CompareSession(None));
            }
            PickOutcome::Picked(Some(value)) => {
                let target = match value.split_once(PICK_SEPARATOR) {
                    Some((gateway, key)) => Some((gateway.to_string(), key.to_string())),
                    // A typed key goes to the gateway the title names.
                    None => self.picker_gateway.clone().map(|g| (g, value.clone())),
                };
                match target {
                    Some(target) => ctx.send(crate::event::AppEvent::CompareSession(Some(target))),
                    None => ctx.status("no gateway to ask: none is attached"),
                }
            }
        }
        self.session_picker = None;
    }

    /// Keys while the filter line is being edited (and Esc while a filter applies); true when
    /// consumed.
    pub(crate) fn handle_input_key(&mut self, key: &KeyEvent, ctx: &ViewCtx) -> bool {
        if self.session_picker.is_some() {
            self.session_picker_key(key, ctx);
            return true;
        }
        if let Some(input) = self.exec_input.as_mut() {
            match input.handle_key(key) {
                InputOutcome::Submitted => {
                    let command = input.text.trim().to_string();
                    self.exec_input = None;
                    // An empty line drops the verdict.
                    ctx.send(crate::event::AppEvent::CheckExecCommand(
                        (!command.is_empty()).then_some(command),
                    ));
                    self.select_exec();
                }
                InputOutcome::Cancelled => self.exec_input = None,
                InputOutcome::Edited | InputOutcome::Ignored => {}
            }
            return true;
        }
        if !self.filter_editing {
            // Esc clears an applied filter, as it cancels one being typed.
            if key.code == crossterm::event::KeyCode::Esc && !self.filter.text.is_empty() {
                self.filter = LineInput::default();
                self.clamp();
                return true;
            }
            return false;
        }
        match self.filter.handle_key(key) {
            InputOutcome::Submitted => self.filter_editing = false,
            InputOutcome::Cancelled => {
                self.filter_editing = false;
                self.filter = LineInput::default();
            }
            InputOutcome::Edited => self.selected = 0,
            InputOutcome::Ignored => return false,
        }
        self.clamp();
        true
    }

    pub(crate) fn paste(&mut self, text: &str) -> bool {
        if let Some(picker) = self.session_picker.as_mut() {
            picker.typed.insert_str(text);
            return true;
        }
        if let Some(input) = self.exec_input.as_mut() {
            input.insert_str(text);
            return true;
        }
        if self.filter_editing {
            self.filter.insert_str(text);
            self.clamp();
        }
        self.filter_editing
    }

    pub(crate) fn handle_action(&mut self, action: Action, _ctx: &ViewCtx) -> bool {
        let n = self.rows().len();
        let page = self.table_area.height.saturating_sub(3).max(1) as usize;
        if let Some(to) = crate::widgets::list::moved(self.selected, action, n, page) {
            self.selected = to;
            return true;
        }
        match action {
            Action::Search => self.filter_editing = true,
            Action::DetailUp | Action::DetailDown => {
                self.detail.scroll(action);
            }
            Action::ScrollLeft => self.layer_offset = self.layer_offset.saturating_sub(1),
            Action::ScrollRight => {
                let layers = self.resolution.as_ref().map_or(0, |r| r.layers.len());
                self.layer_offset =
                    (self.layer_offset + 1).min(layers.saturating_sub(self.layer_columns));
            }
            Action::HiddenOnly => {
                self.hidden_only = !self.hidden_only;
                self.clamp();
            }
            Action::CheckExecCommand => {
                let current = self.exec_check.as_ref().map(|c| c.command.clone());
                self.exec_input = Some(LineInput::new(current.unwrap_or_default()));
            }
            _ => return false,
        }
        true
    }

    pub(crate) fn handle_mouse(&mut self, mouse: &MouseEvent) -> bool {
        if self.detail.mouse(mouse) {
            return true;
        }
        let len = self.rows().len();
        pick_row(
            &mut self.selected,
            self.table_area,
            mouse,
            self.offset,
            len,
            3,
        )
    }

    pub(crate) fn render(&mut self, area: Rect, buf: &mut Buffer, ctx: &ViewCtx) {
        let filter_height = u16::from(
            self.filter_editing || !self.filter.text.is_empty() || self.exec_input.is_some(),
        );
        let error_height = u16::from(self.error.is_some());
        let session_height = u16::from(self.session.is_some());
        let [error_area, session_area, filter_area, lists_area] = Layout::vertical([
            Constraint::Length(error_height),
            Constraint::Length(session_height),
            Constraint::Length(filter_height),
            Constraint::Fill(1),
        ])
        .areas(area);
        if let Some(err) = &self.error {
            let line = Line::from(vec![
                Span::styled("✗ policy: ", theme::error()),
                Span::raw(err.clone()),
                Span::styled(" (showing the last good result)", theme::dim()),
            ]);
            buf.set_line(error_area.x, error_area.y, &line, error_area.width);
        }
        if let (Some(session), Some(res)) = (&self.session, &self.resolution) {
            let known = |name: &str| res.tools.iter().any(|t| t.name == name);
            let line = session.status_line(&known);
            buf.set_line(session_area.x, session_area.y, &line, session_area.width);
        }
        if let Some(input) = &self.exec_input {
            input.render("will it run? !", filter_area, buf, true);
        } else if filter_height > 0 {
            self.filter
                .render("filter /", filter_area, buf, self.filter_editing);
        }
        if self.resolution.is_none() {
            self.table_area = lists_area;
            let text = self
                .error
                .clone()
                .unwrap_or_else(|| "no policy result yet".to_string());
            Paragraph::new(Line::styled(text, theme::error()))
                .wrap(Wrap { trim: false })
                .block(Block::bordered().title(" Policy "))
                .render(lists_area, buf);
            self.render_session_picker(area, buf);
            return;
        }
        // The path grows to what it needs, up to half the room; past that it scrolls.
        self.fill_detail(ctx.keymap);
        let wanted = self.detail.rows_needed(lists_area.width);
        let detail_height =
            DetailPane::height_within(lists_area.height, wanted, lists_area.height / 2);
        let [table_area, detail_area] =
            Layout::vertical([Constraint::Fill(1), Constraint::Length(detail_height)])
                .areas(lists_area);
        self.table_area = table_area;
        self.render_table(table_area, buf);
        self.detail
            .render(detail_area, buf, "Path through the layers", ctx.keymap);
        self.render_session_picker(area, buf);
    }

    /// The selected tool's path (and the session's verdict on it) into the detail pane.
    fn fill_detail(&mut self, keymap: &crate::keymap::Keymap) {
        let (subject, lines) = match (self.selected_tool(), &self.resolution) {
            (Some(t), Some(res)) => {
                let mut lines = self
                    .session
                    .as_ref()
                    .map(|s| s.detail_lines(t))
                    .unwrap_or_default();
                lines.extend(detail_lines(res, t));
                if t.name == "exec" {
                    match &self.exec_check {
                        Some(check) => lines.extend(check.detail_lines()),
                        None => lines.push(Line::styled(
                            format!(
                                " {} judges a command line: will it run?",
                                keymap.key_label(Action::CheckExecCommand)
                            ),
                            theme::dim(),
                        )),
                    }
                }
                (t.name.clone(), lines)
            }
            _ => (String::new(), Vec::new()),
        };
        self.detail.set(&subject, lines);
    }

    /// The tools × layers table. The tool names and the result column come first: on a narrow
    /// terminal the layer columns shrink to three letters, then only those that fit show,
    /// scrolled with ← / → (the title says which).
    fn render_table(&mut self, table_area: Rect, buf: &mut Buffer) {
        let Some(res) = &self.resolution else {
            return;
        };
        let rows = self.rows();
        let total = res.tools.len();
        let visible = res.tools.iter().filter(|t| t.visible).count();
        let mode = if self.hidden_only {
            " · hidden only"
        } else {
            ""
        };
        let session = self.session.as_ref().filter(|s| s.check().is_some());
        let columns = self.table_columns(res, &rows, table_area.width);
        let title = format!(
            " Tools × layers{} · {visible} visible, {} hidden of {total}{mode} · ✓ kept ✗ removed × also removes · skipped ",
            columns.scroll_note(),
            total - visible
        );
        let header = columns.header(res);
        let table_rows: Vec<Row> = rows.iter().map(|t| columns.row(t, session)).collect();
        let widths = columns.widths();
        self.layer_columns = columns.shown.len();
        self.layer_offset = columns.layer_offset;
        let block = Block::bordered().title(title);
        if table_rows.is_empty() {
            let why = if self.hidden_only {
                "no hidden tools match"
            } else {
                "no tools match the filter"
            };
            Paragraph::new(Line::styled(why, theme::dim()))
                .block(block)
                .render(table_area, buf);
        } else {
            let table = list_table(table_rows, widths, header, block);
            self.offset = render_selected(table, table_area, buf, self.selected, self.offset);
        }
    }

    /// Which layer columns fit in `width`, and how wide and how labelled the columns are.
    fn table_columns(&self, res: &Resolution, rows: &[&ToolTrace], width: u16) -> TableColumns {
        let longest_name = rows
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(4)
            .clamp(4, NAME_COLUMN) as u16;
        // The pack's chain: the seed's has no separate sender layer.
        let layer_ids: Vec<LayerId> = res.layers.iter().map(|l| l.id).collect();
        let full_layers: u16 = layer_ids
            .iter()
            .map(|l| l.short().chars().count().max(5) as u16 + 1)
            .sum();
        // The verdict column is there only while a gateway session is compared.
        let with_verdicts = self.session.as_ref().is_some_and(|s| s.check().is_some());
        let verdict_width = if with_verdicts { VERDICT_COLUMN + 1 } else { 0 };
        // Borders, the selection mark and the spaces around the name and result columns.
        let chrome = 2 + 1 + 2;
        let compact =
            NAME_COLUMN as u16 + full_layers + RESULT_COLUMN + verdict_width + chrome > width;
        // `hidden@<layer>` must stay distinct when the column is narrow ("hidden@glob" was both
        // global and glob.prov): the three-letter labels whenever the longest full one is cut.
        let longest_result = "hidden@".len()
            + LayerId::ALL
                .iter()
                .map(|l| l.short().chars().count())
                .max()
                .unwrap_or(0);
        let result_room =
            width.saturating_sub(NAME_COLUMN as u16 + full_layers + verdict_width + chrome);
        let short_results = compact || (result_room as usize) < longest_result;
        // Layer columns that fit beside the whole names and the result: the rest scroll.
        let fitting = if compact {
            let room = width.saturating_sub(longest_name + RESULT_COLUMN + verdict_width + chrome);
            (room / 4) as usize
        } else {
            layer_ids.len()
        }
        .min(layer_ids.len());
        let layer_offset = self.layer_offset.min(layer_ids.len() - fitting);
        let shown: Vec<LayerId> = layer_ids
            .iter()
            .copied()
            .skip(layer_offset)
            .take(fitting)
            .collect();
        TableColumns {
            compact,
            short_results,
            longest_name,
            shown,
            layer_offset,
            layer_count: layer_ids.len(),
            with_verdicts,
        }
    }

    fn render_session_picker(&self, area: Rect, buf: &mut Buffer) {
        if let Some(picker) = &self.session_picker {
            picker.render(area, buf);
        }
    }
}

/// The parts of a rule (pattern, what it expanded from, config path) that its reason text does
/// not already name; the engine's reasons usually mention the rule, so only the rest is added.
fn rule_detail_spans(
    reason: &str,
    pattern_label: &str,
    pattern: Option<&str>,
    expanded_from: Option<&str>,
    config_path: Option<&str>,
) -> Vec<Span<'static>> {
    let missing = |part: Option<&str>| part.filter(|p| !reason.contains(p)).map(str::to_string);
    let mut spans = Vec::new();
    if let Some(p) = missing(pattern) {
        spans.push(Span::styled(
            format!("  {pattern_label}\"{p}\""),
            theme::warning(),
        ));
    }
    if let Some(e) = missing(expanded_from) {
        spans.push(Span::styled(format!(" from {e}"), theme::warning()));
    }
    if let Some(c) = missing(config_path) {
        spans.push(Span::styled(format!(" at {c}"), theme::accent()));
    }
    spans
}

/// Width of the tool column when there is room.
const NAME_COLUMN: usize = 24;
/// Minimum width of the result column.
const RESULT_COLUMN: u16 = 10;

/// The tools × layers table's columns at the width it has.
struct TableColumns {
    /// Too narrow for the full layer names: three-letter labels, the name column as wide as
    /// the longest name.
    compact: bool,
    /// The result column names layers with their three-letter labels.
    short_results: bool,
    longest_name: u16,
    /// The layer columns shown, from `layer_offset` on; the others scroll in.
    shown: Vec<LayerId>,
    layer_offset: usize,
    layer_count: usize,
    /// A gateway session is compared: the verdict column is there.
    with_verdicts: bool,
}

impl TableColumns {
    /// The title's note on scrolled or missing layer columns.
    fn scroll_note(&self) -> String {
        if self.shown.is_empty() && self.layer_count > 0 {
            " (no room for the layer columns)".to_string()
        } else if self.shown.len() < self.layer_count {
            format!(
                " {}–{} of {} (← →)",
                self.layer_offset + 1,
                self.layer_offset + self.shown.len(),
                self.layer_count
            )
        } else {
            String::new()
        }
    }

    /// Layers the context does not have are dimmed.
    fn header(&self, res: &Resolution) -> Row<'static> {
        let mut header = vec![Span::raw("tool")];
        header.extend(self.shown.iter().map(|l| {
            let present = res.layer(*l).is_some_and(|s| s.present);
            let style = if present {
                Style::default()
            } else {
                theme::dim()
            };
            let label = if self.compact {
                compact_label(*l)
            } else {
                l.short()
            };
            Span::styled(label, style)
        }));
        header.push(Span::raw("result"));
        if self.with_verdicts {
            header.push(Span::raw("gateway"));
        }
        Row::new(header)
    }

    /// One tool: its name, each shown layer's decision, the result, the gateway's verdict.
    fn row(&self, t: &ToolTrace, session: Option<&SessionCompare>) -> Row<'static> {
        let name_style = if t.visible {
            Style::default()
        } else {
            theme::hidden()
        };
        let mut cells = vec![Span::styled(t.name.clone(), name_style)];
        for layer in &self.shown {
            cells.push(match t.decision(*layer) {
                Some(d) => {
                    let (sym, style) = cell(d);
                    Span::styled(sym, style)
                }
                None => Span::styled("?", theme::dim()),
            });
        }
        let switched_off = t.removed_by.as_ref().and_then(|r| r.switched_off());
        cells.push(if t.visible {
            Span::styled("visible", theme::ok())
        } else if switched_off.is_some() {
            // Not a layer's decision: a config switch keeps OpenClaw from building it.
            Span::styled("absent", theme::error())
        } else {
            Span::styled(
                format!(
                    "hidden@{}",
                    t.removed_by
                        .as_ref()
                        .map(|r| if self.short_results {
                            compact_label(r.layer)
                        } else {
                            r.layer.short()
                        })
                        .unwrap_or("?")
                ),
                theme::error(),
            )
        });
        if let Some(verdict) = session.and_then(|s| s.row_verdict(t)) {
            let (text, style) = verdict.cell();
            cells.push(Span::styled(text, style));
        }
        Row::new(cells)
    }

    fn widths(&self) -> Vec<Constraint> {
        let mut widths = vec![Constraint::Length(if self.compact {
            self.longest_name
        } else {
            NAME_COLUMN as u16
        })];
        widths.extend(self.shown.iter().map(|l| {
            Constraint::Length(if self.compact {
                3
            } else {
                l.short().chars().count().max(5) as u16
            })
        }));
        widths.push(Constraint::Min(RESULT_COLUMN));
        if self.with_verdicts {
            widths.push(Constraint::Length(VERDICT_COLUMN));
        }
        widths
    }
}

/// Three-letter column labels for narrow terminals (the detail pane spells each layer out).
fn compact_label(layer: LayerId) -> &'static str {
    match layer {
        LayerId::Owner => "own",
        LayerId::Profile => "prf",
        LayerId::ProviderProfile => "ppf",
        LayerId::Global => "glb",
        LayerId::GlobalProvider => "gpv",
        LayerId::Agent => "agt",
        LayerId::AgentProvider => "apv",
        LayerId::Group => "grp",
        LayerId::Sender => "snd",
        LayerId::Sandbox => "sbx",
        LayerId::Subagent => "sub",
        LayerId::Inherited => "inh",
    }
}

/// The selected tool's path: the verdict, then one line per layer with the rule and its place,
/// and the layer's warnings under it.
pub(crate) fn detail_lines(res: &Resolution, tool: &ToolTrace) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let source = tool.source_label();
    let groups = if tool.groups.is_empty() {
        String::new()
    } else {
        format!(" · {}", tool.groups.join(" "))
    };
    let mut head = vec![
        Span::styled(tool.name.clone(), theme::bold()),
        Span::styled(format!(" ({source}{groups}) "), theme::dim()),
    ];
    match &tool.removed_by {
        None => head.push(Span::styled("✓ VISIBLE", theme::ok())),
        Some(r) => {
            let how = match r.kind {
                RemovalKind::Denied => "denied",
                RemovalKind::NotAllowed => "not allowed",
            };
            let verdict = match r.switched_off() {
                Some(switch) => format!("✗ HIDDEN: absent: {switch} (OpenClaw never builds it)"),
                None => format!("✗ HIDDEN: {how} by the {} layer", r.layer.title()),
            };
            head.push(Span::styled(verdict, theme::error()));
        }
    }
    lines.push(Line::from(head));
    // A tool OpenClaw builds only when something brings it: say what did (a node's name is the
    // gateway's text: shown, never interpreted).
    if let Some(because) = &tool.built_because {
        lines.push(Line::styled(
            format!("  built because {}", crate::sanitize::visible(because).text),
            theme::dim(),
        ));
    }
    if let Some(r) = &tool.removed_by {
        let mut why = vec![Span::raw("  "), Span::raw(r.reason.clone())];
        why.extend(rule_detail_spans(
            &r.reason,
            "pattern ",
            r.pattern.as_deref(),
            r.expanded_from.as_deref(),
            r.config_path.as_deref(),
        ));
        // A switch's rule is already the headline.
        if let Some(b) = r.builtin.as_ref().filter(|_| r.switched_off().is_none()) {
            why.push(Span::styled(format!(" (built-in: {b})"), theme::dim()));
        }
        lines.push(Line::from(why));
    }
    for d in &tool.decisions {
        let (sym, style) = cell(d);
        let mut spans = vec![
            Span::styled(format!(" {sym} "), style),
            Span::styled(format!("{:<17}", d.id.id()), theme::bold()),
            Span::styled(format!("{:<8} ", d.decision.as_str()), style),
            Span::raw(d.reason.clone()),
        ];
        // The engine's reason usually names the rule already; add only what it leaves out.
        if let Some(rule) = &d.rule {
            spans.extend(rule_detail_spans(
                &d.reason,
                "",
                rule.pattern.as_deref(),
                rule.expanded_from.as_deref(),
                rule.config_path.as_deref(),
            ));
        }
        lines.push(Line::from(spans));
        for w in res.warnings_for(d.id) {
            let place = w
                .config_path
                .as_deref()
                .map(|p| format!(" ({p})"))
                .unwrap_or_default();
            lines.push(Line::from(vec![Span::styled(
                format!("     ⚠ {}{place}", w.message),
                theme::warning(),
            )]));
        }
    }
    for w in res.warnings.iter().filter(|w| w.layer.is_none()) {
        let place = w
            .config_path
            .as_deref()
            .map(|p| format!(" ({p})"))
            .unwrap_or_default();
        lines.push(Line::from(vec![Span::styled(
            format!(" ⚠ {}{place}", w.message),
            theme::warning(),
        )]));
    }
    lines
}
