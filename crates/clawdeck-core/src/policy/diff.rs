//! What-if: two resolutions side by side (two contexts, two configs, two OpenClaw versions):
//! which tools appear or disappear, and the rule on the side that hides each one. Data for the
//! CLI and the console; `render_diff` is the plain-text form.

use serde::Serialize;

use super::trace::{Removal, Resolution};
use super::{PolicyError, resolve};
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::semantics::Semantics;

/// One side of a comparison.
pub struct DiffInput<'a> {
    /// How the side is named in output (`agent ops`, `--vs-config b.json5`).
    pub label: String,
    /// The config the side reads (`describe()`).
    pub config: String,
    pub resolution: &'a Resolution,
    pub semantics: &'a Semantics,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffSide {
    pub label: String,
    pub config: String,
    pub openclaw: String,
    pub agent: String,
    pub visible: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
}

/// `a` or `b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SideId {
    A,
    B,
}

impl SideId {
    pub fn as_str(self) -> &'static str {
        match self {
            SideId::A => "a",
            SideId::B => "b",
        }
    }
}

/// A tool both sides have, visible on one only; `hidden_by` is the rule of the side hiding it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolChange {
    pub tool: String,
    pub hidden_on: SideId,
    pub hidden_by: Removal,
}

/// A tool only one side's OpenClaw version has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OneSidedTool {
    pub tool: String,
    /// Visible on the side that has it.
    pub visible: bool,
    /// The other side's name for it (`cron` → `automations`), when the version renamed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other_name: Option<String>,
}

/// The whole comparison.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResolutionDiff {
    pub a: DiffSide,
    pub b: DiffSide,
    /// Hidden on a, visible on b.
    pub appear: Vec<ToolChange>,
    /// Visible on a, hidden on b.
    pub disappear: Vec<ToolChange>,
    pub only_in_a: Vec<OneSidedTool>,
    pub only_in_b: Vec<OneSidedTool>,
    /// Tools visible on both sides.
    pub visible_in_both: usize,
}

impl ResolutionDiff {
    /// Whether the two sides expose the same tools and refuse alike.
    pub fn is_same(&self) -> bool {
        self.appear.is_empty()
            && self.disappear.is_empty()
            && self.only_in_a.iter().all(|t| !t.visible)
            && self.only_in_b.iter().all(|t| !t.visible)
            && self.a.refusal.is_some() == self.b.refusal.is_some()
    }
}

fn side(input: &DiffInput<'_>) -> DiffSide {
    let res = input.resolution;
    DiffSide {
        label: input.label.clone(),
        config: input.config.clone(),
        openclaw: res.resolved.openclaw.clone(),
        agent: res.resolved.agent.clone(),
        visible: res.visible().count(),
        refusal: res.refusal.clone(),
    }
}

/// The other version's name for a tool one side has alone: the other version's alias or
/// rename of it (`cron` → `automations`, `image` → `view_image`), or the other's tool this
/// side's version renamed into it.
fn other_name(
    name: &str,
    this: &Semantics,
    other: &Semantics,
    other_res: &Resolution,
) -> Option<String> {
    if let Some(target) = other.alias_target(name) {
        return Some(target.to_string());
    }
    if let Some(renamed) = crate::semantics::renames::renamed_to(name, other) {
        return Some(renamed);
    }
    other_res
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .find(|old| {
            this.alias_target(old) == Some(name)
                || crate::semantics::renames::renamed_to(old, this).as_deref() == Some(name)
        })
        .map(str::to_string)
}

/// Compares `a` with `b`.
pub fn diff(a: &DiffInput<'_>, b: &DiffInput<'_>) -> ResolutionDiff {
    let (ra, rb) = (a.resolution, b.resolution);
    let mut appear = Vec::new();
    let mut disappear = Vec::new();
    let mut visible_in_both = 0;
    let mut only_in_a = Vec::new();
    for ta in &ra.tools {
        let Some(tb) = rb.tools.iter().find(|t| t.name == ta.name) else {
            only_in_a.push(OneSidedTool {
                tool: ta.name.clone(),
                visible: ta.visible,
                other_name: other_name(&ta.name, a.semantics, b.semantics, rb),
            });
            continue;
        };
        match (ta.visible, tb.visible) {
            (true, true) => visible_in_both += 1,
            (false, true) => appear.extend(ta.removed_by.clone().map(|r| ToolChange {
                tool: ta.name.clone(),
                hidden_on: SideId::A,
                hidden_by: r,
            })),
            (true, false) => disappear.extend(tb.removed_by.clone().map(|r| ToolChange {
                tool: ta.name.clone(),
                hidden_on: SideId::B,
                hidden_by: r,
            })),
            (false, false) => {}
        }
    }
    let only_in_b = rb
        .tools
        .iter()
        .filter(|tb| !ra.tools.iter().any(|ta| ta.name == tb.name))
        .map(|tb| OneSidedTool {
            tool: tb.name.clone(),
            visible: tb.visible,
            other_name: other_name(&tb.name, b.semantics, a.semantics, ra),
        })
        .collect();
    ResolutionDiff {
        a: side(a),
        b: side(b),
        appear,
        disappear,
        only_in_a,
        only_in_b,
        visible_in_both,
    }
}

/// What-if between two contexts of one config (the console's "compare with..." on the Policy
/// view): labels name each context's agent and the fields it sets.
pub(crate) fn diff_contexts(
    cfg: &LoadedConfig,
    registry: &Registry,
    a: &PolicyContext,
    b: &PolicyContext,
) -> Result<ResolutionDiff, PolicyError> {
    let ra = resolve(cfg, registry, a)?;
    let rb = resolve(cfg, registry, b)?;
    let side_a = DiffInput {
        label: describe_context(a, &ra.resolved.agent),
        config: cfg.describe(),
        resolution: &ra,
        semantics: &registry.semantics,
    };
    let side_b = DiffInput {
        label: describe_context(b, &rb.resolved.agent),
        config: cfg.describe(),
        resolution: &rb,
        semantics: &registry.semantics,
    };
    Ok(diff(&side_a, &side_b))
}

#[cfg(test)]
/// What-if between two OpenClaw versions for one config and context (the console's version
/// switch): each side gets its pack's registry.
pub(crate) fn diff_versions(
    cfg: &LoadedConfig,
    listing: &crate::mcp_servers::ServerListing,
    ctx: &PolicyContext,
    version_a: &str,
    version_b: &str,
) -> Result<ResolutionDiff, String> {
    let side = |version: &str| -> Result<(LoadedConfig, Registry), String> {
        let loaded = cfg.clone().with_pack(version)?;
        let registry = Registry::build(&loaded, listing);
        Ok((loaded, registry))
    };
    let (ca, ga) = side(version_a)?;
    let (cb, gb) = side(version_b)?;
    let ra = resolve(&ca, &ga, ctx).map_err(|e| e.to_string())?;
    let rb = resolve(&cb, &gb, ctx).map_err(|e| e.to_string())?;
    let label = describe_context(ctx, &ra.resolved.agent);
    Ok(diff(
        &DiffInput {
            label: label.clone(),
            config: ca.describe(),
            resolution: &ra,
            semantics: &ga.semantics,
        },
        &DiffInput {
            label,
            config: cb.describe(),
            resolution: &rb,
            semantics: &gb.semantics,
        },
    ))
}

/// The console's what-if: side a is the context as it is, side b another context, under
/// another OpenClaw version pack when `b_version` names one other than the config's.
pub fn diff_what_if(
    cfg: &LoadedConfig,
    registry: &Registry,
    a: &PolicyContext,
    b: &PolicyContext,
    b_version: Option<&str>,
) -> Result<ResolutionDiff, String> {
    let Some(version) = b_version.filter(|v| *v != cfg.pack.pack) else {
        return diff_contexts(cfg, registry, a, b).map_err(|e| e.to_string());
    };
    let loaded_b = cfg.clone().with_pack(version)?;
    let registry_b = registry.rebuild_for(&loaded_b);
    let ra = resolve(cfg, registry, a).map_err(|e| e.to_string())?;
    let rb = resolve(&loaded_b, &registry_b, b).map_err(|e| e.to_string())?;
    Ok(diff(
        &DiffInput {
            label: describe_context(a, &ra.resolved.agent),
            config: cfg.describe(),
            resolution: &ra,
            semantics: &registry.semantics,
        },
        &DiffInput {
            label: describe_context(b, &rb.resolved.agent),
            config: loaded_b.describe(),
            resolution: &rb,
            semantics: &registry_b.semantics,
        },
    ))
}

/// `agent ops, sandboxed=true, provider=openai`: the agent and every field the context sets.
pub fn describe_context(ctx: &PolicyContext, agent: &str) -> String {
    let mut parts = vec![format!("agent {agent}")];
    let text = [
        ("provider", &ctx.provider),
        ("model", &ctx.model),
        ("channel", &ctx.channel),
        ("account", &ctx.account),
        ("group", &ctx.group),
        ("sender-id", &ctx.sender_id),
        ("sender-e164", &ctx.sender_e164),
        ("sender-username", &ctx.sender_username),
        ("sender-name", &ctx.sender_name),
        ("session-key", &ctx.session_key),
        ("spawned-by", &ctx.spawned_by),
    ];
    for (key, value) in text {
        if let Some(v) = value {
            parts.push(format!("{key}={v}"));
        }
    }
    if let Some(owner) = ctx.owner {
        parts.push(format!("owner={owner}"));
    }
    if let Some(depth) = ctx.subagent_depth {
        parts.push(format!("subagent-depth={depth}"));
    } else if ctx.subagent {
        parts.push("subagent=true".to_string());
    }
    if ctx.sandboxed {
        parts.push("sandboxed=true".to_string());
    }
    parts.join(", ")
}

/// Sets one context field from `KEY=VALUE` (`agent=ops`, `sandboxed=true`, `sender-id=42`);
/// the error names the key and what it takes.
pub fn apply_override(ctx: &mut PolicyContext, assignment: &str) -> Result<(), String> {
    let Some((key, value)) = assignment.split_once('=') else {
        return Err(format!(
            "\"{assignment}\" is not KEY=VALUE (keys: {})",
            OVERRIDE_KEYS.join(", ")
        ));
    };
    let key = key.trim().to_lowercase().replace('_', "-");
    let value = value.trim();
    let text = || (!value.is_empty()).then(|| value.to_string());
    let flag = || match value.to_lowercase().as_str() {
        "true" | "yes" | "1" => Ok(true),
        "false" | "no" | "0" => Ok(false),
        _ => Err(format!("{key} takes true or false, not \"{value}\"")),
    };
    match key.as_str() {
        "agent" => ctx.agent = text(),
        "provider" => ctx.provider = text(),
        "model" => ctx.model = text(),
        "channel" => ctx.channel = text(),
        "account" => ctx.account = text(),
        "group" => ctx.group = text(),
        "sender-id" => ctx.sender_id = text(),
        "sender-e164" => ctx.sender_e164 = text(),
        "sender-username" => ctx.sender_username = text(),
        "sender-name" => ctx.sender_name = text(),
        "session-key" => ctx.session_key = text(),
        "spawned-by" => ctx.spawned_by = text(),
        "owner" => ctx.owner = Some(flag()?),
        "subagent" => ctx.subagent = flag()?,
        "sandboxed" => ctx.sandboxed = flag()?,
        "subagent-depth" => {
            let depth: u32 = value
                .parse()
                .map_err(|_| format!("subagent-depth takes a number, not \"{value}\""))?;
            ctx.subagent_depth = Some(depth);
            ctx.subagent = true;
        }
        _ => {
            return Err(format!(
                "unknown context key \"{key}\" (keys: {})",
                OVERRIDE_KEYS.join(", ")
            ));
        }
    }
    Ok(())
}

/// The keys `apply_override` takes.
pub(crate) const OVERRIDE_KEYS: &[&str] = &[
    "agent",
    "provider",
    "model",
    "channel",
    "account",
    "group",
    "sender-id",
    "sender-e164",
    "sender-username",
    "sender-name",
    "owner",
    "session-key",
    "spawned-by",
    "subagent",
    "subagent-depth",
    "sandboxed",
];

/// The diff as text: a header per side, then `+`/`-` lines with the hiding rule.
pub fn render_diff(d: &ResolutionDiff) -> String {
    let mut out = String::new();
    for (id, s) in [("a", &d.a), ("b", &d.b)] {
        out.push_str(&format!(
            "{id}: {} — {} semantics, {} — {} visible tool(s)\n",
            s.label, s.openclaw, s.config, s.visible
        ));
        if let Some(refusal) = &s.refusal {
            out.push_str(&format!("   run refused: {refusal}\n"));
        }
    }
    if d.is_same() {
        out.push_str(&format!(
            "\nno difference: the same {} tool(s) are visible on both sides\n",
            d.visible_in_both
        ));
    }
    let width = d
        .appear
        .iter()
        .chain(&d.disappear)
        .map(|c| c.tool.len())
        .max()
        .unwrap_or(0);
    if !d.disappear.is_empty() {
        out.push_str(&format!("\ndisappear on b ({}):\n", d.disappear.len()));
        for c in &d.disappear {
            out.push_str(&format!(
                "- {:<width$}  hidden on b by {}\n",
                c.tool,
                c.hidden_by.rule_text()
            ));
        }
    }
    if !d.appear.is_empty() {
        out.push_str(&format!("\nappear on b ({}):\n", d.appear.len()));
        for c in &d.appear {
            out.push_str(&format!(
                "+ {:<width$}  hidden on a by {}\n",
                c.tool,
                c.hidden_by.rule_text()
            ));
        }
    }
    for (id, list, pack) in [
        ("a", &d.only_in_a, &d.a.openclaw),
        ("b", &d.only_in_b, &d.b.openclaw),
    ] {
        if list.is_empty() {
            continue;
        }
        let names = |visible: bool| -> Vec<String> {
            list.iter()
                .filter(|t| t.visible == visible)
                .map(|t| match &t.other_name {
                    Some(other) => format!("{} (= {other})", t.tool),
                    None => t.tool.clone(),
                })
                .collect()
        };
        out.push_str(&format!("\nonly in {id}'s version ({pack}):\n"));
        for (visible, what) in [(true, "visible"), (false, "hidden")] {
            let names = names(visible);
            if !names.is_empty() {
                out.push_str(&format!("  {what}: {}\n", names.join(", ")));
            }
        }
    }
    if !d.is_same() {
        out.push_str(&format!("\nvisible on both sides: {}\n", d.visible_in_both));
    }
    out
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
