//! The context bar (who is asking: agent, provider/model, channel, group, sender, owner,
//! subagent, sandbox; and the installed OpenClaw once it was asked) and its editor, whose
//! pickers are filled from the config.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Row, StatefulWidget, Table, TableState, Widget};

use crate::config::LoadedConfig;
use crate::context::{CHAT_SEND_CHANNEL, PolicyContext, ScheduledDelivery, TurnHost};
use crate::policy::ResolvedContext;
use crate::semantics::Installed;
use crate::theme;
use crate::widgets::centered;
use crate::widgets::picker::{Choice, PickOutcome, Picker};

/// The values the config offers for each field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ContextChoices {
    pub(crate) agents: Vec<String>,
    pub(crate) default_agent: Option<String>,
    pub(crate) providers: Vec<String>,
    pub(crate) models: Vec<String>,
    pub(crate) channels: Vec<String>,
    /// Filled for the context's channel.
    pub(crate) accounts: Vec<String>,
    pub(crate) groups: Vec<String>,
    pub(crate) senders: Vec<String>,
    /// Sessions that may spawn a subagent: each agent's main session.
    pub(crate) spawners: Vec<String>,
    /// Gateway clients whose chat.send turn the context may be: those the pack knows the
    /// capabilities of, and clawdeck's own kind (`cli`).
    pub(crate) clients: Vec<String>,
}

impl ContextChoices {
    pub(crate) fn from_config(config: &LoadedConfig, ctx: &PolicyContext) -> Self {
        let channel = ctx.channel.as_deref();
        let account = ctx.account.as_deref();
        ContextChoices {
            agents: config.agent_ids(),
            default_agent: Some(config.default_agent_id()),
            providers: config.providers(),
            models: config.models(),
            channels: config.channels(),
            accounts: channel.map(|c| config.accounts(c)).unwrap_or_default(),
            groups: channel
                .map(|c| config.groups(c, account))
                .unwrap_or_default(),
            senders: match (channel, ctx.group.as_deref()) {
                (Some(c), Some(g)) => config.sender_keys(c, account, g),
                _ => Vec::new(),
            },
            spawners: config
                .agent_ids()
                .iter()
                .map(|id| format!("agent:{id}:main"))
                .collect(),
            clients: config
                .semantics
                .client_capabilities
                .clients
                .keys()
                .cloned()
                .chain(["cli".to_string()])
                .collect(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    /// A session key (`agent:ops:telegram:group:-100123`): agent, channel, group and subagent
    /// are read from it, as `--session-key` does.
    Session,
    /// The session key of the turn that spawned this subagent (`--spawned-by`).
    SpawnedBy,
    Agent,
    Provider,
    Model,
    Channel,
    Account,
    Group,
    Sender,
    Owner,
    Subagent,
    Sandbox,
    /// The gateway client whose chat.send starts the turn (`--client`).
    Client,
    /// The turn runs on a gateway's agent method, not `openclaw agent --local`
    /// (`--gateway-run`).
    GatewayRun,
    /// The turn is a heartbeat's (`--heartbeat`).
    Heartbeat,
    /// The turn is a scheduled job's with this tool cap (`--scheduled-tools`).
    Scheduled,
    /// Where the scheduled job delivers its answer (`--scheduled-delivery`).
    Delivery,
    /// The session of the agent's turn that made the scheduled job (`--job-owner`).
    JobOwner,
    /// The channel account that turn wrote from (`--job-owner-account`).
    JobOwnerAccount,
    /// The channel that turn came over (`--job-owner-channel`).
    JobOwnerChannel,
}

impl Field {
    pub(crate) const ALL: [Field; 20] = [
        Field::Agent,
        Field::Provider,
        Field::Model,
        Field::Channel,
        Field::Account,
        Field::Group,
        Field::Sender,
        Field::Owner,
        Field::Subagent,
        Field::Sandbox,
        Field::Heartbeat,
        Field::Scheduled,
        Field::Delivery,
        Field::JobOwner,
        Field::JobOwnerAccount,
        Field::JobOwnerChannel,
        Field::GatewayRun,
        Field::Client,
        Field::Session,
        Field::SpawnedBy,
    ];

    fn label(self) -> &'static str {
        match self {
            Field::Session => "session",
            Field::SpawnedBy => "spawned by",
            Field::Agent => "agent",
            Field::Provider => "provider",
            Field::Model => "model",
            Field::Channel => "channel",
            Field::Account => "account",
            Field::Group => "group",
            Field::Sender => "sender",
            Field::Owner => "owner",
            Field::Subagent => "subagent",
            Field::Sandbox => "sandbox",
            Field::Client => "client",
            Field::GatewayRun => "gateway",
            Field::Heartbeat => "heartbeat",
            Field::Scheduled => "scheduled",
            Field::Delivery => "delivery",
            Field::JobOwner => "made in",
            Field::JobOwnerAccount => "made as",
            Field::JobOwnerChannel => "made over",
        }
    }
}

/// Whether the resolved turn runs on a gateway.
fn on_gateway(resolved: &ResolvedContext) -> bool {
    resolved.turn != TurnHost::Local
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// `id:42`, `e164:+1555`, `username:bob` or `name:Bob`, whichever the context has.
pub(crate) fn sender_label(ctx: &PolicyContext) -> Option<String> {
    let parts: Vec<String> = [
        ("id", &ctx.sender_id),
        ("e164", &ctx.sender_e164),
        ("username", &ctx.sender_username),
        ("name", &ctx.sender_name),
    ]
    .iter()
    .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}:{v}")))
    .collect();
    if parts.is_empty() {
        None
    } else {
        Some(parts.join(","))
    }
}

fn field_value(ctx: &PolicyContext, field: Field) -> Option<String> {
    match field {
        Field::Session => ctx.session_key.clone(),
        Field::SpawnedBy => ctx.spawned_by.clone(),
        Field::Agent => ctx.agent.clone(),
        Field::Provider => ctx.provider.clone(),
        Field::Model => ctx.model.clone(),
        Field::Channel => ctx.channel.clone(),
        Field::Account => ctx.account.clone(),
        Field::Group => ctx.group.clone(),
        Field::Sender => sender_label(ctx),
        Field::Owner => Some(yes_no(ctx.is_owner()).to_string()),
        Field::Subagent => Some(yes_no(ctx.subagent).to_string()),
        Field::Sandbox => Some(yes_no(ctx.sandboxed).to_string()),
        Field::Client => client_label(ctx),
        Field::GatewayRun => Some(yes_no(ctx.gateway_run).to_string()),
        Field::Heartbeat => Some(yes_no(ctx.heartbeat).to_string()),
        Field::Scheduled => cap_label(ctx).map(|cap| match cap == EMPTY_CAP {
            true => cap,
            false => format!("cap {cap}"),
        }),
        Field::Delivery => ctx.delivery().map(|d| d.as_str().to_string()),
        Field::JobOwner => ctx.job_owner.clone(),
        Field::JobOwnerAccount => ctx.job_owner_account.clone(),
        Field::JobOwnerChannel => ctx.job_owner_channel.clone(),
    }
}

/// Sets a field from a picked value; `sender` takes `id:`/`e164:`/`username:`/`name:` prefixes
/// (a bare value is an id).
fn set_field(ctx: &mut PolicyContext, field: Field, value: Option<String>) {
    match field {
        Field::Session => {
            // The session's own agent, channel, group and subagent depth replace the old ones.
            ctx.agent = None;
            ctx.channel = None;
            ctx.account = None;
            ctx.group = None;
            ctx.subagent = false;
            ctx.subagent_depth = None;
            ctx.session_key = value;
            *ctx = std::mem::take(ctx).with_session_key();
        }
        // The engine reads the spawner's key (its group, what it passes on); nothing is copied.
        Field::SpawnedBy => ctx.spawned_by = value,
        Field::Agent => ctx.agent = value,
        Field::Provider => ctx.provider = value,
        Field::Model => ctx.model = value,
        Field::Channel => {
            if ctx.channel != value {
                ctx.account = None;
                ctx.group = None;
            }
            // A chat's channel is no webhook job's: the job announces to it.
            if value.is_some() && ctx.scheduled_delivery == Some(ScheduledDelivery::Webhook) {
                ctx.scheduled_delivery = None;
            }
            // The operator's channel is the turn's, even when the session key names the same.
            ctx.channel_from_key = false;
            ctx.channel = value;
        }
        Field::Account => ctx.account = value,
        Field::Group => ctx.group = value,
        Field::Sender => {
            ctx.sender_id = None;
            ctx.sender_e164 = None;
            ctx.sender_username = None;
            ctx.sender_name = None;
            if let Some(v) = value {
                let (kind, rest) = v.split_once(':').unwrap_or(("id", v.as_str()));
                let rest = Some(rest.to_string());
                match kind {
                    "e164" => ctx.sender_e164 = rest,
                    "username" => ctx.sender_username = rest,
                    "name" => ctx.sender_name = rest,
                    "id" => ctx.sender_id = rest,
                    _ => ctx.sender_id = Some(v.clone()),
                }
            }
        }
        Field::Client => ctx.client = value,
        Field::Scheduled => schedule(ctx, value.as_deref().map(PolicyContext::tool_cap)),
        Field::Delivery => deliver(ctx, value.as_deref()),
        // Only a scheduled job has a maker: a session key gives the job a cap of every tool
        // until the operator picks one.
        Field::JobOwner => {
            if value.is_some() && !ctx.is_scheduled() {
                schedule(ctx, Some(vec![ALL_TOOLS_CAP.to_string()]));
            }
            if value.is_none() {
                ctx.job_owner_account = None;
                ctx.job_owner_channel = None;
            }
            ctx.job_owner = value;
        }
        // Only a job an agent made has a maker's account and channel.
        Field::JobOwnerAccount if ctx.job_owner.is_some() => ctx.job_owner_account = value,
        Field::JobOwnerChannel if ctx.job_owner.is_some() => ctx.job_owner_channel = value,
        Field::JobOwnerAccount | Field::JobOwnerChannel => {}
        Field::Owner | Field::Subagent | Field::Sandbox | Field::GatewayRun | Field::Heartbeat => {}
    }
}

/// A heartbeat's turn has no sender, client, spawner or owner (as `--heartbeat` refuses them):
/// turning it on clears them.
fn toggle_heartbeat(ctx: &mut PolicyContext) {
    ctx.heartbeat = !ctx.heartbeat;
    if ctx.heartbeat {
        schedule(ctx, None);
        clear_turn_parties(ctx);
    }
}

/// How the console writes a scheduled job's empty cap (its turn builds no tool).
const EMPTY_CAP: &str = "empty cap (no tool)";

/// The cap that keeps every tool.
const ALL_TOOLS_CAP: &str = "*";

/// A scheduled job's cap as the console writes it (`read,exec`, or [`EMPTY_CAP`]); `None` for a
/// turn that is no scheduled job's.
fn cap_label(ctx: &PolicyContext) -> Option<String> {
    let cap = ctx.scheduled_tools.as_ref()?;
    Some(match cap.is_empty() {
        true => EMPTY_CAP.to_string(),
        false => cap.join(","),
    })
}

/// A scheduled job's turn has no sender, client, spawner, heartbeat or owner, nor a group but
/// its session key's (as `--scheduled-tools` refuses them): setting a cap clears them. Its
/// channel stays: it is the chat the job announces to.
fn schedule(ctx: &mut PolicyContext, cap: Option<Vec<String>>) {
    if cap.is_some() {
        clear_turn_parties(ctx);
        ctx.heartbeat = false;
        if ctx.session_key.is_none() {
            ctx.group = None;
        }
    }
    if cap.is_none() {
        // No job, no job's maker.
        ctx.job_owner = None;
        ctx.job_owner_account = None;
        ctx.job_owner_channel = None;
    }
    ctx.scheduled_tools = cap;
}

/// Sets where the job delivers: a webhook has no chat, so it clears the channel and account
/// (as `--scheduled-delivery webhook` refuses them); an unknown or cleared mode is unset.
fn deliver(ctx: &mut PolicyContext, mode: Option<&str>) {
    let mode = mode.and_then(|m| m.parse::<ScheduledDelivery>().ok());
    if mode == Some(ScheduledDelivery::Webhook) {
        set_field(ctx, Field::Channel, None);
    }
    ctx.scheduled_delivery = mode;
}

/// Clears what a heartbeat's or a scheduled job's turn cannot have: a sender, a client, a
/// spawner and an owner flag.
fn clear_turn_parties(ctx: &mut PolicyContext) {
    set_field(ctx, Field::Sender, None);
    set_field(ctx, Field::Client, None);
    set_field(ctx, Field::SpawnedBy, None);
    ctx.client_caps.clear();
    ctx.owner = None;
}

/// `openclaw-control-ui`, or `cli +inline-widgets`: the turn's client and the capabilities the
/// context adds to its own.
pub(crate) fn client_label(ctx: &PolicyContext) -> Option<String> {
    if !ctx.names_client() {
        return None;
    }
    let mut label = ctx.client.clone().unwrap_or_else(|| "cli".to_string());
    for cap in &ctx.client_caps {
        label.push_str(&format!(" +{cap}"));
    }
    Some(label)
}

/// The context as the engine resolved it: `agent ops · openai/gpt-5 · telegram/-100123 ·
/// sender id:42 · owner yes · sandbox yes`. Values the engine filled in (the agent's model, its
/// sandbox mode, ...) are shown dimmed, so the operator sees what the context really is. When
/// one line cannot hold it all, the identity flags go on a second row (see [`bar_height`]);
/// with room for one row only, the whole bar is cut there.
pub(crate) fn render_bar(
    ctx: &PolicyContext,
    resolved: Option<&ResolvedContext>,
    openclaw: Option<&Installed>,
    area: Rect,
    buf: &mut Buffer,
) {
    let lines = bar_lines(ctx, resolved, openclaw);
    let rows = match area.height {
        0 | 1 => vec![joined(lines)],
        _ => bar_rows(lines, area.width),
    };
    for (i, row) in rows.iter().take(area.height as usize).enumerate() {
        buf.set_line(area.x, area.y + i as u16, row, area.width);
    }
}

/// Rows the bar needs at this width (1 when all of it fits, else 2, or more when the second
/// half's items need more rows).
pub(crate) fn bar_height(
    ctx: &PolicyContext,
    resolved: Option<&ResolvedContext>,
    openclaw: Option<&Installed>,
    width: u16,
) -> u16 {
    bar_rows(bar_lines(ctx, resolved, openclaw), width).len() as u16
}

/// Between two items of the bar, and its width in columns.
const SEPARATOR: &str = " · ";
const SEPARATOR_WIDTH: usize = 3;
/// Where the second row starts (under the first item, past `context `).
const INDENT: &str = "        ";

/// Both halves of the bar on one line.
fn joined([first, second]: [Line<'static>; 2]) -> Line<'static> {
    let mut spans = first.spans;
    spans.push(Span::styled(SEPARATOR, theme::dim()));
    spans.extend(second.spans);
    Line::from(spans)
}

/// The bar laid out at `width`: one row when it fits, else each half on a row of its own, a
/// half too wide for its row without the dimmed notes on where engine-filled values came from
/// (`main (default)` reads `main`, still dimmed).
fn bar_rows(lines: [Line<'static>; 2], width: u16) -> Vec<Line<'static>> {
    let width = width as usize;
    let [first, second] = lines;
    if line_width(&first) + line_width(&second) + SEPARATOR_WIDTH <= width {
        return vec![joined([first, second])];
    }
    let room = width.saturating_sub(INDENT.len());
    let mut rows = vec![fit_notes(first, width)];
    for row in wrap_items(fit_notes(second, room), room) {
        let mut indented = vec![Span::raw(INDENT)];
        indented.extend(row.spans);
        rows.push(Line::from(indented));
    }
    rows
}

/// `line`'s items (each a label and its value, after a separator) on as many rows of `room`
/// columns as they need, whole items per row, so that no label is cut at the edge (a
/// scheduled job's cap and maker key do not fit one row at 80 columns). An item wider than a
/// row has one of its own, cut there.
fn wrap_items(line: Line<'static>, room: usize) -> Vec<Line<'static>> {
    let mut items: Vec<Vec<Span<'static>>> = Vec::new();
    for span in line.spans {
        match items.last_mut() {
            Some(item) if span.content != SEPARATOR => item.push(span),
            _ => items.push(vec![span]),
        }
    }
    let mut rows: Vec<Vec<Span<'static>>> = Vec::new();
    let mut used = 0;
    for mut item in items {
        let width: usize = item.iter().map(Span::width).sum();
        if used > 0 && used + width > room {
            // A row's first item goes without its separator.
            if item.first().is_some_and(|s| s.content == SEPARATOR) {
                item.remove(0);
            }
            rows.push(Vec::new());
            used = 0;
        }
        used += item.iter().map(Span::width).sum::<usize>();
        match rows.last_mut() {
            Some(row) => row.extend(item),
            None => rows.push(item),
        }
    }
    rows.into_iter().map(Line::from).collect()
}

/// The line within `room` columns where leaving out dimmed values' closing ` (...)` notes (on
/// where an engine-filled value came from), first to last, can make it fit.
fn fit_notes(mut line: Line<'static>, room: usize) -> Line<'static> {
    let dim = theme::dim();
    for i in 0..line.spans.len() {
        if line_width(&line) <= room {
            break;
        }
        let span = &line.spans[i];
        let note = span
            .content
            .find(" (")
            .filter(|_| span.content.ends_with(')'));
        if let Some(at) = note.filter(|_| span.style == dim) {
            line.spans[i] = Span::styled(span.content[..at].to_string(), dim);
        }
    }
    line
}

fn line_width(line: &Line) -> usize {
    line.width()
}

/// The two halves of the bar: who and where; then sender, the flags that gate tools, and the
/// installed OpenClaw when it was asked (`OpenClaw 2026.9.6`, `detecting OpenClaw version…`).
fn bar_lines(
    ctx: &PolicyContext,
    resolved: Option<&ResolvedContext>,
    openclaw: Option<&Installed>,
) -> [Line<'static>; 2] {
    let dim = theme::dim();
    let mut first = vec![Span::styled("context ", theme::bold())];
    let mut second = Vec::new();
    let item = |spans: &mut Vec<Span<'static>>, label: &str, value: String, set: bool| {
        // A separator before every item but the first of a line.
        let first_item = spans.is_empty() || (spans.len() == 1 && spans[0].content == "context ");
        if !first_item {
            spans.push(Span::styled(SEPARATOR, dim));
        }
        spans.push(Span::styled(format!("{label} "), dim));
        // Values echo what the operator typed and what a session key says: shown, never sent.
        let value = crate::sanitize::visible(&value).text;
        spans.push(Span::styled(value, if set { theme::accent() } else { dim }));
    };
    // What the session key (else the spawner's) says, where no field of the operator's says
    // otherwise (dimmed).
    let keyed = ctx.clone().with_session_key();
    let own = PolicyContext {
        spawned_by: None,
        ..ctx.clone()
    }
    .with_session_key();
    let from_key = |v: &Option<String>, own_value: &Option<String>| {
        let whose = if own_value.is_some() {
            "session key"
        } else {
            "spawner's key"
        };
        v.as_ref().map(|v| format!("{v} ({whose})"))
    };
    let agent = match (&ctx.agent, resolved) {
        (Some(a), _) => (a.clone(), true),
        (None, _) if keyed.agent.is_some() => (
            from_key(&keyed.agent, &own.agent).unwrap_or_default(),
            false,
        ),
        (None, Some(r)) => (format!("{} (default)", r.agent), false),
        (None, None) => ("(default)".to_string(), false),
    };
    item(&mut first, "agent", agent.0, agent.1);
    let model_of = |p: Option<&String>, m: Option<&String>| match (p, m) {
        (Some(p), Some(m)) if !m.contains('/') => format!("{p}/{m}"),
        (_, Some(m)) => m.clone(),
        (Some(p), None) => p.clone(),
        (None, None) => "-".to_string(),
    };
    let model_set = ctx.provider.is_some() || ctx.model.is_some();
    let model = match resolved {
        Some(r) if !model_set && (r.provider.is_some() || r.model.is_some()) => {
            format!(
                "{} ({})",
                model_of(r.provider.as_ref(), r.model.as_ref()),
                r.model_source.as_deref().unwrap_or("default")
            )
        }
        _ => model_of(ctx.provider.as_ref(), ctx.model.as_ref()),
    };
    item(&mut first, "model", model, model_set);
    let channel = match (&ctx.channel, &ctx.account) {
        (Some(c), Some(a)) => format!("{c}:{a}"),
        (Some(c), None) => c.clone(),
        // A named client's turn is a chat.send one.
        _ if ctx.names_client() && keyed.channel.as_deref() == Some(CHAT_SEND_CHANNEL) => {
            format!("{CHAT_SEND_CHANNEL} (the client's chat.send)")
        }
        _ => from_key(&keyed.channel, &own.channel).unwrap_or_else(|| "-".to_string()),
    };
    // A session key naming another channel than the turn's: the key's is the policy's.
    let channel = match resolved.and_then(|r| r.channel.as_ref().zip(r.turn_channel.as_ref())) {
        Some((policy, turn)) => format!("{policy} (the session key's; turn over {turn})"),
        None => channel,
    };
    // A webhook job's turn has no chat: where it delivers takes the channel's place (an
    // announcing job's chat is its channel).
    match ctx.delivery() {
        Some(ScheduledDelivery::Webhook) => item(&mut first, "delivery", "webhook".into(), true),
        _ => item(&mut first, "channel", channel, ctx.channel.is_some()),
    }
    let group = ctx
        .group
        .clone()
        .or_else(|| from_key(&keyed.group, &own.group))
        .unwrap_or_else(|| "-".into());
    item(&mut first, "group", group, ctx.group.is_some());
    // A heartbeat's or a scheduled job's turn has no sender: the room goes to its cap.
    if !(ctx.heartbeat || ctx.is_scheduled()) {
        let sender = sender_label(ctx);
        item(
            &mut second,
            "sender",
            sender.clone().unwrap_or_else(|| "-".into()),
            sender.is_some(),
        );
    }
    // The flags the engine decided (the config's sandbox mode, a subagent session key, ...);
    // the operator's own toggles are highlighted.
    let owner = resolved.map_or(ctx.is_owner(), |r| r.owner);
    let subagent = resolved.map_or(ctx.subagent, |r| r.subagent);
    let sandboxed = resolved.map_or(ctx.sandboxed, |r| r.sandboxed);
    item(&mut second, "owner", yes_no(owner).into(), !ctx.is_owner());
    let subagent_value = match ctx.spawner_key() {
        Some(key) => format!("yes, spawned by {key}"),
        None => yes_no(subagent).into(),
    };
    item(
        &mut second,
        "subagent",
        subagent_value,
        ctx.subagent || ctx.spawner_key().is_some(),
    );
    item(
        &mut second,
        "sandbox",
        yes_no(sandboxed).into(),
        ctx.sandboxed,
    );
    // A gateway client's capabilities decide some tools (only when the context names one).
    if let Some(client) = client_label(ctx) {
        item(&mut second, "client", client, true);
    }
    // A gateway's turn has its host's tools (only said when the turn is one).
    if let Some(turn) = resolved.map(|r| r.turn).filter(|t| *t != TurnHost::Local) {
        let value = match turn {
            _ if ctx.heartbeat => "heartbeat",
            TurnHost::Scheduled => "scheduled",
            TurnHost::Reply => "reply",
            _ => "agent method",
        };
        item(
            &mut second,
            "gateway",
            value.into(),
            ctx.gateway_run || ctx.heartbeat || ctx.is_scheduled(),
        );
    }
    // A scheduled job's cap decides which tools it has at all.
    if let Some(cap) = cap_label(ctx) {
        item(&mut second, "cap", cap, true);
    }
    // A job an agent made reads its creator's group policy.
    if let Some(owner) = ctx.job_owner_key() {
        item(&mut second, "made in", owner.to_string(), true);
    }
    // Code Mode changes what the model is sent (`explain` says why it engages).
    if resolved
        .and_then(|r| r.code_mode.as_ref())
        .is_some_and(|c| c.engaged)
    {
        item(&mut second, "code mode", "on".into(), false);
    }
    match openclaw {
        Some(Installed::Detecting) => {
            second.push(Span::styled(SEPARATOR, dim));
            second.push(Span::styled(DETECTING_OPENCLAW, theme::warning()));
        }
        Some(Installed::Version(version)) => item(&mut second, "OpenClaw", version.clone(), false),
        Some(Installed::Unknown(_)) => {
            item(&mut second, "OpenClaw", "version unknown".into(), false)
        }
        Some(Installed::NotAsked) | None => {}
    }
    [Line::from(first), Line::from(second)]
}

/// What the bar says while `openclaw --version` has not answered yet.
pub(crate) const DETECTING_OPENCLAW: &str = "detecting OpenClaw version…";

/// The context editor overlay.
#[derive(Debug, Clone)]
pub(crate) struct ContextEditor {
    pub(crate) draft: PolicyContext,
    pub(crate) selected: usize,
    pub(crate) picker: Option<(Field, Picker)>,
}

/// What a key did to the editor.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum EditorOutcome {
    /// A field changed: recompute with this context at once.
    Changed(Box<PolicyContext>),
    Close,
    Pending,
}

impl ContextEditor {
    pub fn new(ctx: &PolicyContext) -> Self {
        ContextEditor {
            draft: ctx.clone(),
            selected: 0,
            picker: None,
        }
    }

    pub(crate) fn handle_key(&mut self, key: &KeyEvent, choices: &ContextChoices) -> EditorOutcome {
        if let Some((field, picker)) = self.picker.as_mut() {
            match picker.handle_key(key) {
                PickOutcome::Picked(value) => {
                    set_field(&mut self.draft, *field, value);
                    self.picker = None;
                    return EditorOutcome::Changed(Box::new(self.draft.clone()));
                }
                PickOutcome::Cancelled => self.picker = None,
                PickOutcome::Pending => {}
            }
            return EditorOutcome::Pending;
        }
        match key.code {
            KeyCode::Esc | KeyCode::Char('c') | KeyCode::Char('q') => EditorOutcome::Close,
            KeyCode::Up | KeyCode::Char('k') => {
                self.selected = self.selected.checked_sub(1).unwrap_or(Field::ALL.len() - 1);
                EditorOutcome::Pending
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1) % Field::ALL.len();
                EditorOutcome::Pending
            }
            KeyCode::Delete | KeyCode::Backspace => {
                let field = Field::ALL[self.selected];
                set_field(&mut self.draft, field, None);
                EditorOutcome::Changed(Box::new(self.draft.clone()))
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let field = Field::ALL[self.selected];
                match field {
                    Field::Owner => self.draft.owner = Some(!self.draft.is_owner()),
                    Field::Subagent => self.draft.subagent = !self.draft.subagent,
                    Field::Sandbox => self.draft.sandboxed = !self.draft.sandboxed,
                    Field::GatewayRun => self.draft.gateway_run = !self.draft.gateway_run,
                    Field::Heartbeat => toggle_heartbeat(&mut self.draft),
                    _ => {
                        self.picker = Some((field, self.picker_for(field, choices)));
                        return EditorOutcome::Pending;
                    }
                }
                EditorOutcome::Changed(Box::new(self.draft.clone()))
            }
            _ => EditorOutcome::Pending,
        }
    }

    fn picker_for(&self, field: Field, choices: &ContextChoices) -> Picker {
        let values: &[String] = match field {
            Field::Agent => &choices.agents,
            Field::Provider => &choices.providers,
            Field::Model => &choices.models,
            Field::Channel => &choices.channels,
            Field::Account => &choices.accounts,
            Field::Group => &choices.groups,
            Field::Sender => &choices.senders,
            Field::SpawnedBy => &choices.spawners,
            Field::Client => &choices.clients,
            Field::Scheduled => &[ALL_TOOLS_CAP.to_string()],
            Field::Delivery => &ScheduledDelivery::ALL.map(|d| d.as_str().to_string()),
            Field::JobOwner => &choices.spawners,
            Field::JobOwnerAccount => &choices.accounts,
            Field::JobOwnerChannel => &choices.channels,
            _ => &[],
        };
        let unset = match (field, &choices.default_agent) {
            (Field::Agent, Some(d)) => format!("(default: {d})"),
            _ => "(none)".to_string(),
        };
        let mut list = vec![Choice {
            value: None,
            label: unset,
        }];
        if field == Field::Scheduled {
            list.push(Choice {
                value: Some(String::new()),
                label: EMPTY_CAP.to_string(),
            });
        }
        list.extend(values.iter().map(|v| Choice {
            value: Some(v.clone()),
            label: v.clone(),
        }));
        let current = field_value(&self.draft, field);
        Picker::new(
            format!("{} (type a new value, Enter picks)", field.label()),
            list,
            current.as_deref(),
        )
    }

    /// Draws the editor; `resolved` (the engine's view of the context) names flags the config
    /// turns on although the toggle is off (`sandbox: yes (agents.list[1].sandbox.mode = "all")`).
    pub(crate) fn render(&self, area: Rect, buf: &mut Buffer, resolved: Option<&ResolvedContext>) {
        let rect = centered(area, 60, Field::ALL.len() as u16 + 4);
        Clear.render(rect, buf);
        let rows: Vec<Row> = Field::ALL
            .iter()
            .map(|f| {
                let value = field_value(&self.draft, *f)
                    .map_or_else(|| "-".to_string(), |v| crate::sanitize::visible(&v).text);
                let decided = resolved.and_then(|r| match f {
                    Field::Owner if r.owner != self.draft.is_owner() => {
                        Some((r.owner, Some(r.owner_source.clone())))
                    }
                    Field::Subagent if r.subagent != self.draft.subagent => {
                        Some((r.subagent, r.subagent_source.clone()))
                    }
                    Field::Sandbox if r.sandboxed != self.draft.sandboxed => {
                        Some((r.sandboxed, r.sandbox_source.clone()))
                    }
                    // A sender, a client, a spawner or a non-owner makes it a gateway's turn.
                    Field::GatewayRun if on_gateway(r) != self.draft.gateway_run => {
                        Some((on_gateway(r), Some(r.turn.describe().to_string())))
                    }
                    _ => None,
                });
                let value = match decided {
                    Some((on, source)) => format!(
                        "{} ({})",
                        yes_no(on),
                        source.unwrap_or_else(|| "from the config".to_string())
                    ),
                    None => value,
                };
                Row::new(vec![f.label().to_string(), value])
            })
            .collect();
        let block = Block::bordered()
            .title(" Context (Enter edits / toggles, Del clears, Esc closes) ")
            .border_style(theme::accent());
        let mut state = TableState::default().with_selected(Some(self.selected));
        StatefulWidget::render(
            Table::new(
                rows,
                [
                    ratatui::layout::Constraint::Length(10),
                    ratatui::layout::Constraint::Fill(1),
                ],
            )
            .row_highlight_style(theme::selected())
            .highlight_symbol("› ")
            .block(block),
            rect,
            buf,
            &mut state,
        );
        if let Some((_, picker)) = &self.picker {
            picker.render(area, buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn picking_and_toggling_change_the_context() {
        let choices = ContextChoices {
            agents: vec!["main".into(), "ops".into()],
            ..Default::default()
        };
        let mut e = ContextEditor::new(&PolicyContext::default());
        assert_eq!(
            e.handle_key(&k(KeyCode::Enter), &choices),
            EditorOutcome::Pending
        );
        e.handle_key(&k(KeyCode::Down), &choices);
        e.handle_key(&k(KeyCode::Down), &choices);
        let EditorOutcome::Changed(ctx) = e.handle_key(&k(KeyCode::Enter), &choices) else {
            panic!("not changed")
        };
        assert_eq!(ctx.agent.as_deref(), Some("ops"));
        for _ in 0..7 {
            e.handle_key(&k(KeyCode::Down), &choices);
        }
        let EditorOutcome::Changed(ctx) = e.handle_key(&k(KeyCode::Enter), &choices) else {
            panic!("not changed")
        };
        assert!(!ctx.is_owner());
    }

    #[test]
    fn a_heartbeat_clears_what_its_turn_cannot_have() {
        let mut ctx = PolicyContext {
            sender_id: Some("42".into()),
            client: Some("cli".into()),
            client_caps: vec!["inline-widgets".into()],
            spawned_by: Some("agent:main:main".into()),
            owner: Some(true),
            agent: Some("ops".into()),
            ..PolicyContext::default()
        };
        toggle_heartbeat(&mut ctx);
        assert!(ctx.heartbeat);
        assert!(!ctx.has_sender() && !ctx.names_client());
        assert_eq!((ctx.spawned_by, ctx.owner), (None, None));
        // What a heartbeat's turn does have stays.
        assert_eq!(ctx.agent.as_deref(), Some("ops"));
        let mut off = PolicyContext {
            heartbeat: true,
            ..PolicyContext::default()
        };
        toggle_heartbeat(&mut off);
        assert!(!off.heartbeat);
    }

    #[test]
    fn a_control_character_in_a_context_value_is_shown_on_the_bar_not_sent() {
        let ctx = PolicyContext {
            scheduled_tools: Some(vec!["read".into()]),
            job_owner: Some("agent:main:telegram:group:\u{1b}[31mred".into()),
            ..PolicyContext::default()
        };
        let [first, second] = bar_lines(&ctx, None, None);
        let text: String = first
            .spans
            .iter()
            .chain(second.spans.iter())
            .map(|s| s.content.as_ref())
            .collect();
        assert!(!text.contains('\u{1b}'), "{text:?}");
        assert!(
            text.contains("made in agent:main:telegram:group:\\x1b[31mred"),
            "{text}"
        );
    }

    #[test]
    fn a_job_an_agent_made_names_its_makers_session_and_goes_with_the_job() {
        let mut ctx = PolicyContext::default();
        let made_in = "agent:main:telegram:group:-100777";
        // Naming a maker makes the turn a job's, with a cap of every tool.
        set_field(&mut ctx, Field::JobOwner, Some(made_in.into()));
        assert_eq!(ctx.scheduled_tools, Some(vec!["*".to_string()]));
        assert_eq!(field_value(&ctx, Field::JobOwner).as_deref(), Some(made_in));
        assert_eq!(
            ctx.job_owner_context(crate::context::CreatorChannel::CreatorsTurn)
                .unwrap()
                .group
                .as_deref(),
            Some("-100777")
        );
        set_field(&mut ctx, Field::Scheduled, Some("read".into()));
        assert_eq!(
            ctx.job_owner.as_deref(),
            Some(made_in),
            "a new cap keeps it"
        );
        // No job, no maker: clearing the cap or turning a heartbeat on drops it.
        set_field(&mut ctx, Field::Scheduled, None);
        assert_eq!(ctx.job_owner, None);
        set_field(&mut ctx, Field::JobOwner, Some(made_in.into()));
        toggle_heartbeat(&mut ctx);
        assert_eq!((&ctx.scheduled_tools, &ctx.job_owner), (&None, &None));
        // The maker's account and channel only with a maker, and gone with it.
        set_field(&mut ctx, Field::JobOwnerChannel, Some("telegram".into()));
        assert_eq!(ctx.job_owner_channel, None);
        set_field(&mut ctx, Field::JobOwner, Some("agent:main:main".into()));
        set_field(&mut ctx, Field::JobOwnerAccount, Some("work".into()));
        set_field(&mut ctx, Field::JobOwnerChannel, Some("telegram".into()));
        assert_eq!(
            field_value(&ctx, Field::JobOwnerAccount).as_deref(),
            Some("work")
        );
        assert_eq!(
            field_value(&ctx, Field::JobOwnerChannel).as_deref(),
            Some("telegram")
        );
        set_field(&mut ctx, Field::JobOwner, None);
        assert_eq!(
            (&ctx.job_owner_account, &ctx.job_owner_channel),
            (&None, &None)
        );
    }

    #[test]
    fn a_webhook_delivery_has_no_chat_and_a_chat_makes_it_an_announcement() {
        let mut ctx = PolicyContext {
            channel: Some("telegram".into()),
            account: Some("work".into()),
            ..PolicyContext::default()
        };
        assert_eq!(
            field_value(&ctx, Field::Delivery),
            None,
            "no job, no delivery"
        );
        set_field(&mut ctx, Field::Scheduled, Some("*".into()));
        set_field(&mut ctx, Field::Delivery, Some("webhook".into()));
        assert_eq!((&ctx.channel, &ctx.account), (&None, &None));
        assert_eq!(
            field_value(&ctx, Field::Delivery).as_deref(),
            Some("webhook")
        );
        assert_eq!(ctx.delivery_conflict(), None);
        set_field(&mut ctx, Field::Channel, Some("discord".into()));
        assert_eq!(
            field_value(&ctx, Field::Delivery).as_deref(),
            Some("announce")
        );
        assert_eq!(ctx.delivery_conflict(), None);
        set_field(&mut ctx, Field::Delivery, None);
        assert_eq!(ctx.scheduled_delivery, None);
        assert_eq!(ctx.channel.as_deref(), Some("discord"));
    }

    #[test]
    fn a_scheduled_cap_clears_what_a_jobs_turn_cannot_have_and_a_heartbeat_clears_the_cap() {
        let mut ctx = PolicyContext {
            sender_id: Some("42".into()),
            client: Some("cli".into()),
            spawned_by: Some("agent:main:main".into()),
            owner: Some(false),
            heartbeat: true,
            channel: Some("telegram".into()),
            group: Some("-100".into()),
            agent: Some("ops".into()),
            ..PolicyContext::default()
        };
        set_field(&mut ctx, Field::Scheduled, Some("group:fs, exec".into()));
        assert_eq!(
            ctx.scheduled_tools,
            Some(vec!["group:fs".to_string(), "exec".to_string()])
        );
        assert!(!ctx.has_sender() && !ctx.names_client() && !ctx.heartbeat);
        assert_eq!((&ctx.spawned_by, ctx.owner), (&None, None));
        // The channel is the chat the job announces to; a group comes from a session key only.
        assert_eq!(
            (ctx.channel.as_deref(), &ctx.group),
            (Some("telegram"), &None)
        );
        assert_eq!(
            field_value(&ctx, Field::Delivery).as_deref(),
            Some("announce")
        );
        assert_eq!(ctx.agent.as_deref(), Some("ops"));
        assert_eq!(
            field_value(&ctx, Field::Scheduled).as_deref(),
            Some("cap group:fs,exec")
        );
        // The picker's empty cap is a cap that keeps nothing; clearing the row ends the job.
        set_field(&mut ctx, Field::Scheduled, Some(String::new()));
        assert_eq!(ctx.scheduled_tools, Some(Vec::new()));
        assert_eq!(
            field_value(&ctx, Field::Scheduled).as_deref(),
            Some(EMPTY_CAP)
        );
        toggle_heartbeat(&mut ctx);
        assert!(ctx.heartbeat && ctx.scheduled_tools.is_none());
        set_field(&mut ctx, Field::Scheduled, None);
        assert!(!ctx.is_scheduled());
    }

    #[test]
    fn a_session_key_sets_agent_channel_group_and_subagent() {
        let mut ctx = PolicyContext {
            agent: Some("main".into()),
            channel: Some("discord".into()),
            ..PolicyContext::default()
        };
        set_field(
            &mut ctx,
            Field::Session,
            Some("agent:ops:telegram:group:-100123".into()),
        );
        assert_eq!(
            ctx.session_key.as_deref(),
            Some("agent:ops:telegram:group:-100123")
        );
        assert_eq!(ctx.agent.as_deref(), Some("ops"));
        assert_eq!(ctx.channel.as_deref(), Some("telegram"));
        assert_eq!(ctx.group.as_deref(), Some("-100123"));
        assert!(ctx.channel_from_key);
        set_field(&mut ctx, Field::Channel, Some("telegram".into()));
        assert!(
            !ctx.channel_from_key,
            "picked by the operator: the turn's channel"
        );
        set_field(
            &mut ctx,
            Field::Session,
            Some("agent:main:subagent:a:subagent:b".into()),
        );
        assert_eq!(ctx.agent.as_deref(), Some("main"));
        assert_eq!(ctx.channel, None);
        assert!(ctx.subagent);
        assert_eq!(ctx.subagent_depth, Some(2));
        set_field(&mut ctx, Field::Session, None);
        assert_eq!(ctx.session_key, None);
    }

    #[test]
    fn sender_prefixes_pick_the_field() {
        let mut ctx = PolicyContext::default();
        set_field(&mut ctx, Field::Sender, Some("username:bob".into()));
        assert_eq!(ctx.sender_username.as_deref(), Some("bob"));
        set_field(&mut ctx, Field::Sender, Some("42".into()));
        assert_eq!(
            (ctx.sender_id.as_deref(), ctx.sender_username.as_deref()),
            (Some("42"), None)
        );
    }
}
