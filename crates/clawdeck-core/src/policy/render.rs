//! Plain-text renderings of a `Resolution` (no terminal codes): the tool × layer matrix, one
//! tool's path, the final list. The CLI prints these; the console may show them as they are.

use std::fmt::Write as _;

use super::layer::LayerId;
use super::trace::{Decision, LayerDecision, RemovalKind, Resolution, ToolTrace};

fn yes_no(v: bool) -> &'static str {
    if v { "yes" } else { "no" }
}

/// Two lines saying who is asking, with where each default came from.
pub fn render_context(res: &Resolution) -> String {
    let r = &res.resolved;
    let mut out = String::new();
    let _ = write!(out, "agent: {}", r.agent);
    if let Some(path) = &r.agent_path {
        let _ = write!(out, " ({path})");
    }
    let _ = write!(out, " · provider: {}", r.provider.as_deref().unwrap_or("-"));
    let _ = write!(out, " · model: {}", r.model.as_deref().unwrap_or("-"));
    if let Some(source) = &r.model_source {
        let _ = write!(out, " ({source})");
    }
    let ctx = &res.context;
    if let Some(channel) = &ctx.channel {
        let _ = write!(out, " · channel: {channel}");
        if let Some(account) = &ctx.account {
            let _ = write!(out, "/{account}");
        }
        if let Some(group) = &ctx.group {
            let _ = write!(out, " · group: {group}");
        }
        if let Some(turn) = &ctx.turn_channel {
            let _ = write!(out, " · turn over: {turn}");
        }
    }
    let senders: Vec<String> = [
        ("id", &ctx.sender_id),
        ("e164", &ctx.sender_e164),
        ("username", &ctx.sender_username),
        ("name", &ctx.sender_name),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}:{v}")))
    .collect();
    if !senders.is_empty() {
        let _ = write!(out, " · sender: {}", senders.join(" "));
    }
    out.push('\n');
    let _ = write!(out, "owner: {} ({})", yes_no(r.owner), r.owner_source);
    let _ = write!(out, " · subagent: {}", yes_no(r.subagent));
    if let Some(s) = &r.subagent_source {
        let _ = write!(out, " ({s})");
    }
    let _ = write!(out, " · sandboxed: {}", yes_no(r.sandboxed));
    if let Some(s) = &r.sandbox_source {
        let _ = write!(out, " ({s})");
    }
    if r.remote {
        out.push_str(" · remote caller");
    }
    if r.turn != crate::context::TurnHost::Local {
        let _ = write!(out, " · turn: {}", r.turn.describe());
    }
    if let Some(delivery) = r.delivery {
        let _ = write!(out, " · delivery: {}", delivery.as_str());
    }
    if let Some(owner) = &r.job_owner {
        let _ = write!(out, " · made by an agent in {owner}");
        if let Some(channel) = &r.job_owner_channel {
            let _ = write!(out, " (its channel: {channel})");
        }
    }
    out.push('\n');
    if !r.openclaw.is_empty() {
        let _ = writeln!(
            out,
            "openclaw: {} semantics ({})",
            r.openclaw, r.openclaw_reason
        );
    }
    if let Some(refusal) = &res.refusal {
        let _ = writeln!(out, "run refused: {refusal}");
    }
    // The model then calls most visible tools from code, not by name: say so where it shows,
    // and say why not where the config turns it off.
    match r.code_mode.as_ref() {
        Some(code_mode) if code_mode.engaged => {
            let _ = writeln!(
                out,
                "{}: the model is sent exec, wait and the direct-only tools; the other visible tools are called from exec's code",
                code_mode.describe()
            );
        }
        Some(code_mode) if !code_mode.by_default() => {
            let _ = writeln!(out, "{}", code_mode.describe());
        }
        _ => {}
    }
    // The context echoes what the operator typed and what a session key says: every
    // character is shown, none interpreted (an escape in a group id cannot restyle the line).
    shown_lines(&out)
}

/// Each line of `text` made fully visible, the line breaks kept.
fn shown_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| crate::sanitize::visible::visible(line).text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cell for one decision: `.` skipped, `ok` kept, `DENY` / `MISS` removed (deny entry /
/// not in the allowlist), lower case when an earlier layer had already removed the tool.
fn cell(decision: &LayerDecision) -> &'static str {
    match decision.decision {
        Decision::Skipped => ".",
        Decision::Kept => "ok",
        Decision::Removed => {
            let denied = decision.rule.as_ref().is_some_and(|r| r.pattern.is_some());
            match (denied, decision.reached) {
                (true, true) => "DENY",
                (false, true) => "MISS",
                (true, false) => "deny",
                (false, false) => "miss",
            }
        }
    }
}

fn result_text(tool: &ToolTrace) -> String {
    match &tool.removed_by {
        None => "visible".to_string(),
        Some(removal) => format!("hidden by {}: {}", removal.layer, removal.reason),
    }
}

/// The whole tool × layer matrix, then the layers and the warnings.
pub fn render_table(res: &Resolution) -> String {
    let mut out = render_context(res);
    out.push('\n');
    let name_width = res
        .tools
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let layer_ids: Vec<LayerId> = res.layers.iter().map(|l| l.id).collect();
    let widths: Vec<usize> = layer_ids.iter().map(|l| l.short().len().max(4)).collect();
    let _ = write!(out, "{:<name_width$}", "TOOL");
    for (id, w) in layer_ids.iter().zip(&widths) {
        let _ = write!(out, " {:<w$}", id.short());
    }
    out.push_str("  RESULT\n");
    for tool in &res.tools {
        let _ = write!(out, "{:<name_width$}", tool.name);
        for (id, w) in layer_ids.iter().zip(&widths) {
            let c = tool.decision(*id).map(cell).unwrap_or("?");
            let _ = write!(out, " {c:<w$}");
        }
        let _ = writeln!(out, "  {}", result_text(tool));
    }
    out.push_str("\n. skipped (layer absent)  ok kept  DENY denied  MISS not in the allowlist  (lower case: an earlier layer already removed it)\n");
    let visible = res.visible().count();
    let _ = writeln!(out, "{visible} of {} tools visible", res.tools.len());
    out.push('\n');
    out.push_str(&render_layers(res));
    out.push_str(&render_warnings(res));
    out
}

/// One line per layer: id, label, whether it applies, how many tools it removed, why.
pub(crate) fn render_layers(res: &Resolution) -> String {
    let mut out = String::from("LAYERS\n");
    let label_width = res.layers.iter().map(|l| l.label.len()).max().unwrap_or(5);
    for layer in &res.layers {
        let state = if layer.present {
            format!("removes {:>3}", layer.removed)
        } else {
            "skipped    ".to_string()
        };
        let _ = writeln!(
            out,
            "  {:<16} {:<label_width$}  {state}  {}",
            layer.id.id(),
            layer.label,
            layer.note
        );
    }
    out
}

/// Warnings, each with its layer and config path; empty when there are none.
pub fn render_warnings(res: &Resolution) -> String {
    if res.warnings.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nWARNINGS\n");
    for w in &res.warnings {
        let layer = w.layer.map(|l| l.id()).unwrap_or("-");
        let _ = write!(out, "  [{layer}] {}", w.message);
        if let Some(path) = &w.config_path {
            let _ = write!(out, " ({path})");
        }
        out.push('\n');
    }
    out
}

/// One tool's path through the layers.
/// A tool's status line (visible, or hidden and by what) and its notes.
fn render_status(out: &mut String, tool: &ToolTrace) {
    let source = tool.source_label();
    let groups = if tool.groups.is_empty() {
        String::new()
    } else {
        format!(", {}", tool.groups.join(" "))
    };
    match &tool.removed_by {
        None => {
            let _ = writeln!(out, "{} ({source}{groups}): VISIBLE", tool.name);
        }
        Some(removal) => {
            let how = match removal.kind {
                RemovalKind::Denied => "denied",
                RemovalKind::NotAllowed => "not allowed",
            };
            match removal.switched_off() {
                Some(switch) => writeln!(
                    out,
                    "{} ({source}{groups}): HIDDEN, absent: {switch} (OpenClaw never builds it)",
                    tool.name
                ),
                None => writeln!(
                    out,
                    "{} ({source}{groups}): HIDDEN, {how} by the {} layer",
                    tool.name, removal.layer
                ),
            }
            .ok();
            let _ = writeln!(out, "  {}", removal.reason);
        }
    }
    if tool.visible {
        for note in &tool.notes {
            // A form note says how the tool is sent, the others how its calls go.
            let heading = match note.topic {
                "form" => "sent",
                _ => "when called",
            };
            let _ = writeln!(out, "  {heading}: {}", note.text);
        }
    }
}

pub fn render_tool(res: &Resolution, tool: &ToolTrace) -> String {
    let mut out = render_context(res);
    out.push('\n');
    render_status(&mut out, tool);
    out.push('\n');
    let label_width = tool
        .decisions
        .iter()
        .map(|d| d.label.len())
        .max()
        .unwrap_or(5);
    let _ = writeln!(
        out,
        "  {:<16} {:<label_width$}  {:<8}  WHY",
        "LAYER", "LABEL", "DECISION"
    );
    for d in &tool.decisions {
        let decision = if d.decision == Decision::Removed && !d.reached {
            "removed*"
        } else {
            d.decision.as_str()
        };
        let _ = writeln!(
            out,
            "  {:<16} {:<label_width$}  {decision:<8}  {}",
            d.id.id(),
            d.label,
            d.reason
        );
    }
    if tool
        .decisions
        .iter()
        .any(|d| d.decision == Decision::Removed && !d.reached)
    {
        out.push_str("  (* would also remove it, but an earlier layer already did)\n");
    }
    let related: Vec<_> = res
        .warnings
        .iter()
        .filter(|w| {
            w.layer.is_some_and(|l| {
                tool.decisions
                    .iter()
                    .any(|d| d.id == l && d.decision != Decision::Skipped)
            })
        })
        .collect();
    if !related.is_empty() {
        out.push_str("\nWARNINGS (layers on this path)\n");
        for w in related {
            let layer = w.layer.map(|l| l.id()).unwrap_or("-");
            let _ = write!(out, "  [{layer}] {}", w.message);
            if let Some(path) = &w.config_path {
                let _ = write!(out, " ({path})");
            }
            out.push('\n');
        }
    }
    out
}

/// The final list as OpenClaw has it: name, source, groups. clawdeck's own tools are not
/// OpenClaw's: one line names them and where they are served (`render_served_list`).
pub fn render_tool_list(res: &Resolution) -> String {
    let mut out = render_context(res);
    out.push('\n');
    let visible: Vec<&ToolTrace> = res.visible().filter(|t| !t.clawdeck_own).collect();
    out.push_str(&tool_table(&visible, false));
    let openclaws = res.tools.iter().filter(|t| !t.clawdeck_own).count();
    let _ = writeln!(out, "\n{} of {openclaws} tools visible", visible.len());
    let own: Vec<&str> = res
        .visible()
        .filter(|t| t.clawdeck_own)
        .map(|t| t.name.as_str())
        .collect();
    if !own.is_empty() {
        let _ = writeln!(
            out,
            "clawdeck's own tools, not OpenClaw's (`clawdeck mcp` serves them; `clawdeck tools --mcp`):\n  {}",
            own.join(", ")
        );
    }
    out.push_str(&render_warnings(res));
    out
}

/// What `clawdeck mcp` serves in this context: the visible tools, OpenClaw's and clawdeck's own,
/// each with its owner; nothing when the run is refused.
pub fn render_served_list(res: &Resolution) -> String {
    let mut out = render_context(res);
    out.push('\n');
    let served: Vec<&ToolTrace> = res.served().collect();
    out.push_str(&tool_table(&served, true));
    let own = served.iter().filter(|t| t.clawdeck_own).count();
    let _ = writeln!(
        out,
        "\n`clawdeck mcp` serves {} tools here: {} OpenClaw's, {own} clawdeck's own",
        served.len(),
        served.len() - own
    );
    out.push_str(&render_warnings(res));
    out
}

/// One row per tool: name, (owner,) source, groups; each column as wide as its widest entry
/// (in characters), so every row lines up.
fn tool_table(tools: &[&ToolTrace], with_owner: bool) -> String {
    let source_of = |tool: &ToolTrace| match &tool.plugin_id {
        Some(id) => format!("plugin:{id}"),
        None => tool.source.to_string(),
    };
    let widest = |header: &str, cell: &dyn Fn(&ToolTrace) -> String| {
        tools
            .iter()
            .map(|t| cell(t).chars().count())
            .chain([header.len()])
            .max()
            .unwrap_or(0)
    };
    let name_width = widest("TOOL", &|t| t.name.clone());
    let source_width = widest("SOURCE", &source_of);
    let owner = |t: Option<&ToolTrace>| match (with_owner, t) {
        (false, _) => String::new(),
        (true, None) => format!("{:<8}  ", "OWNER"),
        (true, Some(t)) => format!("{:<8}  ", t.owner()),
    };
    let mut out = String::new();
    let header = format!(
        "{:<name_width$}  {}{:<source_width$}  GROUPS",
        "TOOL",
        owner(None),
        "SOURCE"
    );
    out.push_str(&header);
    out.push('\n');
    for tool in tools {
        let line = format!(
            "{:<name_width$}  {}{:<source_width$}  {}",
            tool.name,
            owner(Some(tool)),
            source_of(tool),
            tool.groups.join(" ")
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
