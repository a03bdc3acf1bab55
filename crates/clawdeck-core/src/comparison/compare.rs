//! clawdeck's prediction against what real OpenClaw exposed: one verdict per tool, schema
//! differences as JSON pointers, and clawdeck's deciding rule on every disagreement.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::{Value, json};

use super::observed::{ObservedTool, ObservedView, Surface};
use crate::policy::{Decision, Resolution, ToolTrace};
use crate::semantics::GatewayEffectiveRules;

/// At most this many schema differences are listed per tool.
const MAX_DIFFS_PER_TOOL: usize = 40;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agreement {
    /// Both sides expose the tool.
    Agree,
    /// clawdeck shows it; OpenClaw does not.
    ClawdeckOnly,
    /// OpenClaw exposes it; clawdeck hides it or does not know it.
    OpenclawOnly,
}

/// One place where the two schemas differ.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SchemaDiff {
    /// JSON pointer into the function object (`/parameters/properties/path`).
    pub pointer: String,
    pub clawdeck: Option<Value>,
    pub openclaw: Option<Value>,
}

/// One tool's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolVerdict {
    pub tool: String,
    pub agreement: Agreement,
    /// For tools both sides expose with a schema: where the function objects differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub schema: Vec<SchemaDiff>,
    /// Schema differences beyond the listed ones.
    #[serde(skip_serializing_if = "is_zero")]
    pub schema_more: usize,
    /// clawdeck's deciding rule for this tool (always set on a policy disagreement).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clawdeck_rule: Option<String>,
    /// Who provides the tool on OpenClaw's side (`core`, a plugin id), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openclaw_owner: Option<String>,
    /// Why the surface observed lists the tool differently from what a run sends the model
    /// (the pack's `gatewayEffective` rules): a known difference of the surface, so not a
    /// policy disagreement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surface_note: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl ToolVerdict {
    pub fn is_policy_disagreement(&self) -> bool {
        self.agreement != Agreement::Agree && self.surface_note.is_none()
    }

    pub fn has_schema_difference(&self) -> bool {
        !self.schema.is_empty()
    }

    /// A tool the version has that this config's run does not build (its rule says what
    /// would bring it), not one clawdeck's catalog lacks.
    pub fn is_not_built(&self) -> bool {
        self.clawdeck_rule
            .as_deref()
            .is_some_and(|rule| rule.starts_with(NOT_BUILT))
    }
}

/// The whole comparison for one context.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Sorted by tool name.
    pub verdicts: Vec<ToolVerdict>,
    /// How OpenClaw exposed the tools (direct, Tool Search, gateway list, refused).
    pub surface: Surface,
    /// Facts that limit the comparison (schemas not compared, directory truncated, ...).
    pub notes: Vec<String>,
    /// One side refuses the run (no callable tool left after an explicit allowlist) and the
    /// other does not: what each said. A policy disagreement of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal_disagreement: Option<String>,
}

impl Comparison {
    pub fn policy_disagreements(&self) -> usize {
        let tools = self
            .verdicts
            .iter()
            .filter(|v| v.is_policy_disagreement())
            .count();
        tools + usize::from(self.refusal_disagreement.is_some())
    }

    pub fn schema_differences(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| v.has_schema_difference())
            .count()
    }

    pub fn agreeing(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| v.agreement == Agreement::Agree)
            .count()
    }

    /// Verdicts the surface explains (listed differently by it, not a policy disagreement).
    pub fn surface_differences(&self) -> usize {
        self.verdicts
            .iter()
            .filter(|v| v.agreement != Agreement::Agree && v.surface_note.is_some())
            .count()
    }

    pub fn is_clean(&self) -> bool {
        self.policy_disagreements() == 0 && self.schema_differences() == 0
    }

    /// The verdicts that are disagreements of either kind.
    pub fn disagreements(&self) -> impl Iterator<Item = &ToolVerdict> {
        self.verdicts
            .iter()
            .filter(|v| v.is_policy_disagreement() || v.has_schema_difference())
    }

    /// `3 policy disagreements, 2 schema differences, 40 tools agree` (and `, 2 listed
    /// differently by the surface` when the surface explains some).
    pub fn summary(&self) -> String {
        let surface = match self.surface_differences() {
            0 => String::new(),
            n => format!(", {n} listed differently by the surface"),
        };
        format!(
            "{} policy disagreement{}, {} schema difference{}, {} tool{} agree{surface}",
            self.policy_disagreements(),
            plural(self.policy_disagreements()),
            self.schema_differences(),
            plural(self.schema_differences()),
            self.agreeing(),
            plural(self.agreeing()),
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// clawdeck's prediction for the context: the resolution (for rules) and the provider payload
/// for OpenAI Chat Completions (what the mock receives), `[{type, function}]`.
pub struct Prediction<'a> {
    pub resolution: &'a Resolution,
    pub payload: &'a Value,
    /// clawdeck's own tools (clawbot_router, the local system tools): OpenClaw never has them,
    /// so they are left out of the comparison.
    pub own_tools: BTreeSet<String>,
    /// Tools the observed run could not have: a paired node's, when the run was the lab's (its
    /// private gateway has no nodes); left out of the comparison with a note.
    pub lab_lacks: BTreeSet<String>,
    /// Visible tools deferred behind Tool Search that OpenClaw's directory never names (MCP
    /// server tools): the directory only counts them among the omitted.
    pub searchable_only: BTreeSet<String>,
    /// Tools whose schema clawdeck cannot know (plugin tools named only by `contracts.tools`):
    /// their schemas are not compared.
    pub schema_unknown: BTreeSet<String>,
    /// How a gateway's `tools.effective` lists tools differently from a run (the pack's).
    pub gateway_effective: Option<&'a GatewayEffectiveRules>,
    /// Tools the version has but this config's run does not build, with what would bring
    /// each (the pack's conditions).
    pub not_built: BTreeMap<String, String>,
    /// Code Mode's `exec` and `wait` when clawdeck's run engages it: in the payload, but not
    /// the tools of those names.
    pub code_mode_controls: BTreeSet<String>,
}

impl Prediction<'_> {
    /// The function object the payload sends under `name`.
    fn sent(&self, name: &str) -> Option<&Value> {
        self.payload.as_array()?.iter().find_map(|tool| {
            let function = tool.get("function")?;
            (function.get("name").and_then(Value::as_str) == Some(name)).then_some(function)
        })
    }

    /// The tool `name` as clawdeck sends it (not Code Mode's control of that name).
    fn function(&self, name: &str) -> Option<&Value> {
        (!self.code_mode_controls.contains(name)).then(|| self.sent(name))?
    }

    /// A Code Mode control as clawdeck sends it.
    fn control(&self, name: &str) -> Option<&Value> {
        self.code_mode_controls
            .contains(name)
            .then(|| self.sent(name))?
    }

    /// The tools clawdeck's run sends (none when it refuses the run), clawdeck's own left out.
    fn visible(&self) -> BTreeSet<String> {
        self.resolution
            .served()
            .map(|t| t.name.clone())
            .filter(|name| !self.own_tools.contains(name) && !self.lab_lacks.contains(name))
            .collect()
    }
}

/// Compares the prediction with the observation.
pub fn compare(prediction: &Prediction<'_>, observed: &ObservedView) -> Comparison {
    let predicted = prediction.visible();
    let mut exposed: BTreeSet<String> = observed.exposed_names().into_iter().collect();
    let mut notes = Vec::new();
    let schemas_known = !matches!(observed.surface, Surface::GatewayEffective);
    let own_visible: Vec<&str> = prediction
        .resolution
        .visible()
        .map(|t| t.name.as_str())
        .filter(|name| prediction.own_tools.contains(*name))
        .collect();
    if !own_visible.is_empty() {
        notes.push(format!(
            "clawdeck's own tools are not compared: {}",
            own_visible.join(", ")
        ));
    }
    if !prediction.lab_lacks.is_empty() {
        let names: Vec<&str> = prediction.lab_lacks.iter().map(String::as_str).collect();
        notes.push(format!(
            "tools paired nodes published are not compared (the lab's runs have no paired node; `verify --gateway` compares a gateway that has them): {}",
            names.join(", ")
        ));
    }
    let unknown: Vec<&str> = prediction
        .schema_unknown
        .iter()
        .filter(|name| predicted.contains(*name))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() && schemas_known {
        notes.push(format!(
            "schemas not compared for plugin tools clawdeck knows only by name (contracts.tools): {}",
            unknown.join(", ")
        ));
    }
    notes.extend(surface_notes(prediction, observed, &mut exposed));

    let verdicts = predicted
        .union(&exposed)
        .map(|name| {
            let sides = (predicted.contains(name), exposed.contains(name));
            tool_verdict(prediction, observed, name, sides, &mut notes)
        })
        .collect();
    Comparison {
        verdicts,
        surface: observed.surface.clone(),
        notes,
        refusal_disagreement: refusal_disagreement(prediction, observed),
    }
}

/// Whether the two sides disagree on refusing the run, in words; a gateway's list cannot show
/// a refusal.
fn refusal_disagreement(prediction: &Prediction<'_>, observed: &ObservedView) -> Option<String> {
    let ours = prediction.resolution.refusal.as_deref();
    match (&observed.surface, ours) {
        (Surface::GatewayEffective, _) => None,
        (Surface::Refused { .. }, Some(_)) => None,
        (Surface::Refused { .. }, None) => {
            Some("OpenClaw refused the run; clawdeck runs it".to_string())
        }
        (_, Some(refusal)) => Some(format!(
            "clawdeck refuses the run ({refusal}); OpenClaw ran it"
        )),
        (_, None) => None,
    }
}

/// What the observed surface means for the comparison (Tool Search's deferred tools count as
/// exposed when the directory's count is exactly clawdeck's).
fn surface_notes(
    prediction: &Prediction<'_>,
    observed: &ObservedView,
    exposed: &mut BTreeSet<String>,
) -> Vec<String> {
    let mut notes = Vec::new();
    match &observed.surface {
        Surface::GatewayEffective => notes.push(
            "the gateway's tools.effective lists names only: schemas were not compared".into(),
        ),
        Surface::ToolSearch {
            deferred, omitted, ..
        } => {
            notes.push(format!(
                "Tool Search on: {} tools sent with schemas, {} deferred (schemas compared for the direct ones)",
                observed.tools.len(),
                deferred.len()
            ));
            let unnamed = prediction.searchable_only.len();
            if *omitted > 0 && *omitted == unnamed {
                // The directory cannot name them, but its count is exactly clawdeck's.
                exposed.extend(prediction.searchable_only.iter().cloned());
                notes.push(format!(
                    "the deferred directory omitted {omitted} tools, as many as the MCP server tools clawdeck predicts there (OpenClaw's directory names only its own tools; the others are found through tool_search)"
                ));
            } else if *omitted > 0 {
                notes.push(format!(
                    "the deferred directory omitted {omitted} tools ({unnamed} of them MCP server tools by clawdeck's prediction): they count as exposed by neither list"
                ));
            }
        }
        Surface::CodeMode {
            controls,
            cataloged,
            omitted,
        } => notes.extend(code_mode_notes(
            prediction,
            observed,
            (controls, cataloged, *omitted),
            exposed,
        )),
        Surface::Refused { error } => notes.push(format!("OpenClaw refused the run: {error}")),
        Surface::Direct => {}
    }
    // Only a model request shows Code Mode (a gateway's list and a refusal say nothing of it).
    if !prediction.code_mode_controls.is_empty()
        && matches!(
            observed.surface,
            Surface::Direct | Surface::ToolSearch { .. }
        )
    {
        notes.push("clawdeck's run engages Code Mode and OpenClaw's did not".to_string());
    }
    notes
}

/// A tool name as Code Mode makes it callable from code (characters JavaScript names cannot
/// hold become `_`).
fn callable(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// What OpenClaw's Code Mode run means for the comparison: the names `exec`'s index lists
/// count as exposed (as the tools they stand for), the index's omitted count stands for
/// clawdeck's unlisted ones when it is exactly their number, and the controls' parameters are
/// compared with the pack's.
fn code_mode_notes(
    prediction: &Prediction<'_>,
    observed: &ObservedView,
    (controls, cataloged, omitted): (&[ObservedTool], &[String], usize),
    exposed: &mut BTreeSet<String>,
) -> Vec<String> {
    let predicted = prediction.visible();
    for listed in cataloged {
        if let Some(name) = predicted
            .iter()
            .find(|p| callable(p) == *listed && *p != listed)
        {
            exposed.remove(listed);
            exposed.insert(name.clone());
        }
    }
    let mut notes = vec![format!(
        "Code Mode on: {} tools sent with schemas beside exec and wait, {} listed in exec's index of the tools callable from code, {omitted} more omitted there",
        observed.tools.len(),
        cataloged.len()
    )];
    // MCP server tools are never indexed: code reaches them through the MCP namespace.
    let (mcp, unlisted): (Vec<&String>, Vec<&String>) = predicted
        .iter()
        .filter(|name| !exposed.contains(*name))
        .partition(|name| prediction.searchable_only.contains(*name));
    if !mcp.is_empty() {
        notes.push(mcp_namespace_note(prediction, controls, &mcp, exposed));
    }
    if omitted > 0 && omitted == unlisted.len() {
        exposed.extend(unlisted.into_iter().cloned());
        notes.push(format!(
            "exec's index omitted {omitted} tools, as many as clawdeck predicts callable from code beyond those it lists: they count as exposed"
        ));
    } else if omitted > 0 {
        notes.push(format!(
            "exec's index omitted {omitted} tools, and clawdeck predicts {} more callable from code: they count as exposed by neither list",
            unlisted.len()
        ));
    }
    if prediction.code_mode_controls.is_empty() {
        notes.push("OpenClaw's run engages Code Mode and clawdeck's does not".to_string());
        return notes;
    }
    for control in controls {
        let Some(ours) = prediction.control(&control.name) else {
            continue;
        };
        let mut diffs = Vec::new();
        let real = control.function.get("parameters").unwrap_or(&Value::Null);
        let mine = ours.get("parameters").unwrap_or(&Value::Null);
        diff_json(mine, real, "/parameters".to_string(), &mut diffs);
        if !diffs.is_empty() {
            let at: Vec<&str> = diffs.iter().map(|d| d.pointer.as_str()).collect();
            notes.push(format!(
                "Code Mode's {}: its parameters differ at {}",
                control.name,
                at.join(", ")
            ));
        }
    }
    notes.push(code_mode_index_note(prediction, controls));
    notes
}

/// What clawdeck's MCP server tools mean in a Code Mode run: they count as exposed when
/// OpenClaw's `exec` description names the servers clawdeck's names (the MCP namespace's).
fn mcp_namespace_note(
    prediction: &Prediction<'_>,
    controls: &[ObservedTool],
    tools: &[&String],
    exposed: &mut BTreeSet<String>,
) -> String {
    let servers = |f: Option<&Value>| {
        f.and_then(|f| f.get("description"))
            .and_then(Value::as_str)
            .and_then(super::observed::mcp_servers_named)
    };
    let exec = controls.iter().find(|c| c.name == "exec");
    let real = servers(exec.map(|c| &c.function));
    let n = tools.len();
    match real {
        Some(real) if Some(&real) == servers(prediction.control("exec")).as_ref() => {
            exposed.extend(tools.iter().map(|t| (*t).clone()));
            format!(
                "{n} MCP server tools are callable from code through the MCP namespace, not indexed: exec's description names their servers as clawdeck's does ({}), so they count as exposed",
                real.join(", ")
            )
        }
        real => format!(
            "clawdeck predicts {n} MCP server tools callable through the MCP namespace; OpenClaw's exec names {}: they count as exposed by neither list",
            real.map_or("no MCP server".to_string(), |r| r.join(", "))
        ),
    }
}

/// How clawdeck's Code Mode exec description compares with OpenClaw's: its text before the
/// index (the run's budgets and catalog facts), then the index of the tools callable from code
/// line by line.
fn code_mode_index_note(prediction: &Prediction<'_>, controls: &[ObservedTool]) -> String {
    let description = |f: Option<&Value>| {
        f.and_then(|f| f.get("description"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let real = description(
        controls
            .iter()
            .find(|c| c.name == "exec")
            .map(|c| &c.function),
    );
    let ours = description(prediction.control("exec"));
    let split = |d: &str| -> (String, String) {
        let index = super::observed::code_mode_index_text(d).unwrap_or_default();
        (d[..d.len() - index.len()].to_string(), index.to_string())
    };
    let ((real_head, real_index), (our_head, our_index)) = (split(&real), split(&ours));
    let head = match real_head == our_head {
        true => "its text agrees".to_string(),
        false => "its text before the index differs".to_string(),
    };
    let differing: Vec<(&str, &str)> = real_index
        .lines()
        .zip(our_index.lines())
        .filter(|(r, o)| r != o)
        .collect();
    let lines = real_index.lines().count();
    let index = match differing.first() {
        None if lines == our_index.lines().count() => {
            format!("its index of the tools callable from code agrees, {lines} lines")
        }
        None => format!(
            "its index has {lines} lines in OpenClaw, {} in clawdeck",
            our_index.lines().count()
        ),
        Some((r, o)) => format!(
            "{} of its index's {lines} lines differ, first OpenClaw's {r:?}, clawdeck's {o:?}",
            differing.len()
        ),
    };
    format!("Code Mode's exec: {head}; {index}")
}

/// One tool's verdict; `sides` is (clawdeck shows it, OpenClaw exposes it). A surface note
/// also goes to `notes`.
fn tool_verdict(
    prediction: &Prediction<'_>,
    observed: &ObservedView,
    name: &str,
    sides: (bool, bool),
    notes: &mut Vec<String>,
) -> ToolVerdict {
    let schemas_known = !matches!(observed.surface, Surface::GatewayEffective);
    let trace = prediction.resolution.trace(name);
    let owner = observed
        .direct(name)
        .and_then(|t| t.owner.clone())
        .or_else(|| deferred_owner(observed, name));
    let agreement = match sides {
        (true, true) => Agreement::Agree,
        (true, false) => Agreement::ClawdeckOnly,
        _ => Agreement::OpenclawOnly,
    };
    let (schema, schema_more) = match (
        agreement,
        schemas_known,
        observed.direct(name),
        prediction.function(name),
    ) {
        (Agreement::Agree, true, Some(real), Some(ours))
            if !prediction.schema_unknown.contains(name) =>
        {
            let mut diffs = Vec::new();
            let more = diff_json(ours, &real.function, String::new(), &mut diffs);
            (diffs, more)
        }
        // Tool Search (or Code Mode) sends the one side's tool with its schema and defers the
        // other's.
        (Agreement::Agree, true, real, ours)
            if matches!(
                observed.surface,
                Surface::ToolSearch { .. } | Surface::CodeMode { .. }
            ) && real.is_some() != ours.is_some() =>
        {
            let code_mode = matches!(observed.surface, Surface::CodeMode { .. })
                || !prediction.code_mode_controls.is_empty();
            let placement = |direct: bool| {
                json!(if direct {
                    "sent with its schema"
                } else if code_mode {
                    "callable from Code Mode's exec"
                } else {
                    "deferred behind Tool Search"
                })
            };
            let diff = SchemaDiff {
                pointer: String::new(),
                clawdeck: Some(placement(ours.is_some())),
                openclaw: Some(placement(real.is_some())),
            };
            (vec![diff], 0)
        }
        _ => (Vec::new(), 0),
    };
    let clawdeck_rule = match agreement {
        Agreement::Agree if schema.is_empty() => None,
        _ => Some(match prediction.not_built.get(name) {
            Some(brings) if trace.is_none() => {
                format!("{NOT_BUILT}: OpenClaw builds it only with {brings}")
            }
            _ => deciding_rule(trace),
        }),
    };
    let surface_note = match (&observed.surface, prediction.gateway_effective) {
        (Surface::GatewayEffective, Some(rules)) => surface_note(rules, agreement, name, trace),
        _ => None,
    };
    if let Some(note) = &surface_note {
        notes.push(format!("{name}: {note}"));
    }
    ToolVerdict {
        tool: name.to_string(),
        agreement,
        schema,
        schema_more,
        clawdeck_rule,
        openclaw_owner: owner,
        surface_note,
    }
}

/// The pack's reason when tools.effective lists `name` differently from a run by design: a
/// tool clawdeck shows that the list never has, or a tool the list has that a run leaves out
/// (and no policy layer of clawdeck's removes).
fn surface_note(
    rules: &GatewayEffectiveRules,
    agreement: Agreement,
    name: &str,
    trace: Option<&ToolTrace>,
) -> Option<String> {
    match agreement {
        Agreement::ClawdeckOnly => rules
            .never_lists
            .get(name)
            .map(|why| format!("tools.effective never lists it: {why}")),
        // Not built for the run (no trace, or a switch's absence) counts as no removal.
        Agreement::OpenclawOnly
            if trace.is_none_or(|t| {
                t.removed_by
                    .as_ref()
                    .is_none_or(|removal| removal.switched_off().is_some())
            }) =>
        {
            rules
                .also_lists
                .get(name)
                .map(|why| format!("tools.effective lists it although a run may not: {why}"))
        }
        _ => None,
    }
}

fn deferred_owner(observed: &ObservedView, name: &str) -> Option<String> {
    match &observed.surface {
        Surface::ToolSearch { deferred, .. } => deferred
            .iter()
            .find(|d| d.name == name)
            .and_then(|d| d.owner.clone()),
        _ => None,
    }
}

/// How the deciding rule of a tool the version has, but this config's run does not build,
/// begins (the rest says what would bring it).
pub const NOT_BUILT: &str = "not built for this config";

/// One line: why clawdeck shows or hides the tool.
pub fn deciding_rule(trace: Option<&ToolTrace>) -> String {
    let Some(trace) = trace else {
        return "not in clawdeck's catalog".to_string();
    };
    if let Some(removal) = &trace.removed_by {
        let place = removal
            .config_path
            .clone()
            .or_else(|| removal.builtin.clone())
            .map(|p| format!(" [{p}]"))
            .unwrap_or_default();
        return format!("hidden at {}: {}{place}", removal.layer, removal.reason);
    }
    let allowing: Vec<String> = trace
        .decisions
        .iter()
        .filter(|d| d.decision == Decision::Kept)
        .filter_map(|d| {
            let rule = d.rule.as_ref()?;
            let pattern = rule.pattern.as_deref()?;
            let place = rule
                .config_path
                .as_deref()
                .or(rule.builtin.as_deref())
                .unwrap_or("built-in");
            Some(format!(
                "{} allows it (\"{pattern}\" at {place})",
                d.label.as_str()
            ))
        })
        .collect();
    if allowing.is_empty() {
        format!(
            "visible: no layer removes it ({} tool)",
            trace.source_label()
        )
    } else {
        format!("visible: {}", allowing.join("; "))
    }
}

/// Records where `ours` and `real` differ (pointer-addressed); returns how many differences did
/// not fit in the list.
fn diff_json(ours: &Value, real: &Value, pointer: String, out: &mut Vec<SchemaDiff>) -> usize {
    if ours == real {
        return 0;
    }
    match (ours, real) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            let mut more = 0;
            for key in keys {
                let child = format!("{pointer}/{}", escape_pointer(key));
                more += match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => diff_json(x, y, child, out),
                    (x, y) => push_diff(out, child, x.cloned(), y.cloned()),
                };
            }
            more
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .map(|(i, (x, y))| diff_json(x, y, format!("{pointer}/{i}"), out))
            .sum(),
        _ => push_diff(out, pointer, Some(ours.clone()), Some(real.clone())),
    }
}

fn push_diff(
    out: &mut Vec<SchemaDiff>,
    pointer: String,
    clawdeck: Option<Value>,
    openclaw: Option<Value>,
) -> usize {
    if out.len() >= MAX_DIFFS_PER_TOOL {
        return 1;
    }
    out.push(SchemaDiff {
        pointer,
        clawdeck,
        openclaw,
    });
    0
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use serde_json::json;

    #[test]
    fn json_differences_are_addressed_by_pointer() {
        let ours = json!({"name": "read", "parameters": {"type": "object",
            "properties": {"file_path": {"type": "string"}, "a/b": 1}, "required": ["file_path"]}});
        let real = json!({"name": "read", "parameters": {"type": "object",
            "properties": {"path": {"type": "string"}, "a/b": 2}, "required": ["path"]}});
        let mut diffs = Vec::new();
        assert_eq!(diff_json(&ours, &real, String::new(), &mut diffs), 0);
        let pointers: Vec<&str> = diffs.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/parameters/properties/a~1b",
                "/parameters/properties/file_path",
                "/parameters/properties/path",
                "/parameters/required/0",
            ]
        );
        assert_eq!(diffs[1].openclaw, None);
        assert_eq!(diffs[2].clawdeck, None);
        assert_eq!(diffs[3].openclaw, Some(json!("path")));
    }

    #[test]
    fn long_difference_lists_are_capped() {
        let ours = Value::Object((0..50).map(|i| (format!("k{i:02}"), json!(i))).collect());
        let real = json!({});
        let mut diffs = Vec::new();
        let more = diff_json(&ours, &real, String::new(), &mut diffs);
        assert_eq!((diffs.len(), more), (MAX_DIFFS_PER_TOOL, 10));
    }
}
