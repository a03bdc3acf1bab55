//! The console's chrome: tabs, context bar, the active view, status line, footer hints, and
//! overlays on top.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::app::{App, Overlay};
use super::context_bar;
use super::tab_bar;
use super::theme;

/// Below this size the views cannot show a usable table, so a notice is drawn instead.
pub(crate) const MIN_WIDTH: u16 = 30;
pub(crate) const MIN_HEIGHT: u16 = 8;
/// Below this height the context bar keeps to one row: the view needs the room more.
const ROOMY_HEIGHT: u16 = 16;

pub(crate) fn render(app: &mut App, frame: &mut Frame) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        app.tab_areas.clear();
        render_too_small(area, frame);
        return;
    }
    let openclaw = app.config().map(|c| &c.pack.installed);
    let mut context_height = context_bar::bar_height(
        &app.context,
        app.policy.resolution.as_ref().map(|r| &r.resolved),
        openclaw,
        area.width,
    );
    if area.height < ROOMY_HEIGHT {
        context_height = context_height.min(1);
    }
    let [tabs, context, body, status, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(context_height),
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    render_tabs(app, tabs, frame);
    let resolved = app.policy.resolution.as_ref().map(|r| &r.resolved);
    let openclaw = app.config().map(|c| &c.pack.installed);
    context_bar::render_bar(
        &app.context,
        resolved,
        openclaw,
        context,
        frame.buffer_mut(),
    );
    render_body(app, body, frame);
    render_status(app, status, frame);
    render_footer(app, footer, frame);
    let view = app.view;
    let buf = frame.buffer_mut();
    match &mut app.overlay {
        Some(Overlay::Help(help)) => help.render(&app.keymap, view, area, buf),
        Some(Overlay::Confirm(confirm)) => confirm.render(area, buf),
        Some(Overlay::Context(editor)) => editor.render(
            area,
            buf,
            app.policy.resolution.as_ref().map(|r| &r.resolved),
        ),
        None => {}
    }
}

fn render_tabs(app: &mut App, area: Rect, frame: &mut Frame) {
    let buf = frame.buffer_mut();
    app.tab_areas.clear();
    // Pending approvals win the room over tabs: they must be seen from every view.
    let waiting = app.approvals.waiting(app.clock.wall());
    let badge = approvals_badge(waiting);
    let badge_width = unicode_width::UnicodeWidthStr::width(badge.as_str()) as u16;
    let right = (area.x + area.width).saturating_sub(badge_width);
    if !badge.is_empty() {
        let text = super::widgets::ellipsize(&badge, area.width as usize);
        buf.set_string(
            right.max(area.x),
            area.y,
            text,
            theme::warning().patch(theme::bold()),
        );
    }
    // Every tab shows (shortened when narrow); the active one always whole.
    let keymap = &app.keymap;
    let bar = tab_bar::layout_badged(
        app.view,
        right.saturating_sub(area.x),
        |v| keymap.view_key(v),
        |v| tab_bar::approvals_tab_badge(v, waiting),
    );
    if bar.brand {
        buf.set_string(area.x, area.y, tab_bar::BRAND, theme::bold());
    }
    if bar.more_left {
        buf.set_string(area.x, area.y, "«", theme::accent());
    }
    for tab in &bar.tabs {
        let style = if tab.view == app.view {
            theme::selected().patch(theme::bold())
        } else {
            theme::dim()
        };
        let x = area.x + tab.x;
        let width = unicode_width::UnicodeWidthStr::width(tab.label.as_str()) as u16;
        buf.set_string(x, area.y, &tab.label, style);
        app.tab_areas
            .push((Rect::new(x, area.y, width, 1), tab.view));
    }
    if bar.more_right {
        buf.set_string(area.x + bar.used - 1, area.y, "»", theme::accent());
    }
    let x = area.x + bar.used + 1;
    if let Some(config) = app.config() {
        let origin = format!(" {}", config.describe());
        let room = right.saturating_sub(x) as usize;
        if room > 10 {
            let text = super::widgets::ellipsize(&origin, room);
            let w = unicode_width::UnicodeWidthStr::width(text.as_str()) as u16;
            buf.set_string(right - w, area.y, text, theme::dim());
        }
    }
}

/// `⚠ 2 approvals` while approvals wait for an answer; empty otherwise.
pub(crate) fn approvals_badge(pending: usize) -> String {
    match pending {
        0 => String::new(),
        1 => " ⚠ 1 approval ".to_string(),
        n => format!(" ⚠ {n} approvals "),
    }
}

fn render_body(app: &mut App, area: Rect, frame: &mut Frame) {
    let (view, ctx) = app.active_view();
    view.render(area, frame.buffer_mut(), &ctx);
}

fn render_status(app: &App, area: Rect, frame: &mut Frame) {
    let line = if let Some((text, _)) = &app.status {
        Line::from(vec![
            Span::styled("» ", theme::accent()),
            Span::raw(text.clone()),
        ])
    } else if let Some(err) = &app.config_error {
        Line::from(vec![
            Span::styled("✗ config: ", theme::error()),
            Span::raw(err.clone()),
            Span::styled(" (showing the last good config)", theme::dim()),
        ])
    } else if let Some(mcp) = app.deck.mcp_endpoint() {
        Line::styled(mcp.status().summary(), theme::dim())
    } else {
        Line::raw("")
    };
    frame
        .buffer_mut()
        .set_line(area.x, area.y, &line, area.width);
}

fn render_footer(app: &mut App, area: Rect, frame: &mut Frame) {
    let id = app.view;
    let (view, ctx) = app.active_view();
    let hints = view.hints(ctx.keymap, id);
    let mut spans = Vec::new();
    for (key, desc) in hints {
        spans.push(Span::styled(key, theme::accent().patch(theme::bold())));
        spans.push(Span::raw(format!(" {desc}  ")));
    }
    frame
        .buffer_mut()
        .set_line(area.x, area.y, &Line::from(spans), area.width);
}

/// The notice for a terminal below the usable size (keys still work: `q` quits).
fn render_too_small(area: Rect, frame: &mut Frame) {
    let lines = [
        "terminal too small".to_string(),
        format!(
            "{}x{}, needs {MIN_WIDTH}x{MIN_HEIGHT}",
            area.width, area.height
        ),
        "q quits".to_string(),
    ];
    let buf = frame.buffer_mut();
    for (i, text) in lines.iter().enumerate() {
        let y = area.y + i as u16;
        if y >= area.y + area.height {
            break;
        }
        buf.set_stringn(area.x, y, text, area.width as usize, theme::warning());
    }
}
