//! `clawdeck lint`'s core: findings about a config, each with a severity, a sentence and the
//! config key to change (with file:line:col when the config text is at hand).
//!
//! Config-wide checks read the file itself (every tool-policy scope, wherever it sits); context
//! checks read the policy engine's `Resolution` for every agent (or the one context asked for),
//! so lint never recomputes policy. No terminal code: the CLI prints a `LintReport`, the console
//! renders the same data.

mod channel_plugins;
mod context_checks;
mod exec_checks;
mod location;
mod names;
mod scopes;

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::catalog::Registry;
use crate::config::{ConfigSource, DEMO_CONFIG, LoadedConfig};
use crate::context::PolicyContext;
use crate::policy::{self, PolicyError, Resolution};

pub use exec_checks::approvals_doc_findings;
pub use location::{Location, parse_key_path};

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing; nothing breaks.
    Info,
    /// The config does not do what it seems to.
    Warning,
    /// OpenClaw rejects the config or refuses the run.
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// What a finding is about; stable ids for scripts and the console's filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// `allow` and `alsoAllow` set in one scope.
    AllowWithAlsoAllow,
    /// A policy entry that matches no tool of the version.
    UnknownName,
    /// A policy entry that names a tool by a name the version renamed.
    RenamedName,
    /// Explicit allowlists leave no callable tool: the run is refused.
    NoCallableTool,
    /// An allowlist naming only plugin tools.
    PluginOnlyAllowlist,
    /// `mcp.servers` tools filtered out by the sandbox tool gate.
    McpHiddenBySandbox,
    /// exec asks for approval where no approval surface is configured.
    ExecApprovalHeadless,
    /// `tools.exec` is configured for an agent whose exec the tool policy removes.
    ExecConfigUnused,
    /// `approvals.exec.enabled: false` while exec still asks (it only stops forwarding).
    ExecApprovalSwitches,
    /// A host approvals allowlist entry no command can match (a chain, a builtin, arguments).
    ExecAllowlistNeverMatches,
    /// A channel configured where this machine's OpenClaw lacks its plugin.
    ChannelPluginMissing,
}

impl FindingKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::AllowWithAlsoAllow => "allow-with-also-allow",
            FindingKind::UnknownName => "unknown-name",
            FindingKind::RenamedName => "renamed-name",
            FindingKind::NoCallableTool => "no-callable-tool",
            FindingKind::PluginOnlyAllowlist => "plugin-only-allowlist",
            FindingKind::McpHiddenBySandbox => "mcp-hidden-by-sandbox",
            FindingKind::ExecApprovalHeadless => "exec-approval-headless",
            FindingKind::ExecConfigUnused => "exec-config-unused",
            FindingKind::ExecApprovalSwitches => "exec-approval-switches",
            FindingKind::ExecAllowlistNeverMatches => "exec-allowlist-never-matches",
            FindingKind::ChannelPluginMissing => "channel-plugin-missing",
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    pub kind: FindingKind,
    pub message: String,
    /// The config key to change (`agents.entries.ops.tools.alsoAllow`); `null` when none.
    pub config_path: Option<String>,
    /// Where that key is written, when the config text is at hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// The contexts it applies to (`agent ops`); empty for config-wide findings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contexts: Vec<String>,
}

impl Finding {
    fn new(
        severity: Severity,
        kind: FindingKind,
        message: String,
        config_path: Option<String>,
    ) -> Finding {
        Finding {
            severity,
            kind,
            message,
            config_path,
            location: None,
            contexts: Vec::new(),
        }
    }
}

/// Which contexts to lint.
#[derive(Debug, Clone, PartialEq)]
pub enum LintScope {
    /// Every configured agent's default context, plus its sandboxed (non-main) session when
    /// its sandbox mode is `non-main`.
    AllAgents,
    /// One context, as `clawdeck tools` would resolve it.
    Context(Box<PolicyContext>),
}

/// A context lint resolved, with the name findings use for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LintedContext {
    pub label: String,
    pub agent: String,
    pub sandboxed: bool,
    pub visible_tools: usize,
}

/// Everything `clawdeck lint` says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LintReport {
    /// The config in use (`describe()`).
    pub config: String,
    /// The OpenClaw semantics pack that answered, and why.
    pub openclaw: String,
    pub openclaw_reason: String,
    pub contexts: Vec<LintedContext>,
    /// Most severe first, then in file order.
    pub findings: Vec<Finding>,
}

impl LintReport {
    /// The most severe finding's severity.
    pub(crate) fn worst(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// Adds findings from outside the config (the host approvals document), most severe first.
    pub fn add(&mut self, more: Vec<Finding>) {
        self.findings.extend(more);
        self.findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    }

    /// Whether anything of severity warning or error was found.
    pub fn has_problems(&self) -> bool {
        self.worst().is_some_and(|s| s >= Severity::Warning)
    }
}

/// The report as text: one block per finding (severity, place, message, contexts), then a
/// summary line.
pub fn render_report(report: &LintReport) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let place = match (&f.location, &f.config_path) {
            (Some(at), Some(path)) => format!("{at}: {path}"),
            (None, Some(path)) => path.clone(),
            (_, None) => "(no config key)".to_string(),
        };
        out.push_str(&format!(
            "{}[{}] {place}\n  {}\n",
            f.severity.as_str(),
            f.kind.as_str(),
            f.message
        ));
        if !f.contexts.is_empty() {
            out.push_str(&format!("  in: {}\n", f.contexts.join("; ")));
        }
    }
    let contexts: Vec<&str> = report.contexts.iter().map(|c| c.label.as_str()).collect();
    out.push_str(&format!(
        "{}{} error(s), {} warning(s), {} note(s) in {} context(s): {}\n",
        if report.findings.is_empty() { "" } else { "\n" },
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info),
        contexts.len(),
        contexts.join("; ")
    ));
    out
}

/// The config's text, for locating keys: the file it was loaded from, or the embedded demo.
pub fn config_text(cfg: &LoadedConfig) -> Option<String> {
    match cfg.source {
        ConfigSource::EmbeddedDemo => Some(DEMO_CONFIG.to_string()),
        ConfigSource::Gateway => cfg.remote.as_ref().map(|r| r.text.clone()),
        _ => cfg
            .path
            .as_ref()
            .and_then(|p| crate::config::read_text::read_config_text(p).ok()),
    }
}

/// Lints `cfg` (answered by its pack, through `registry`) for `scope`. `text` is the config's
/// text, used only to add file:line:col to findings.
pub fn lint(
    cfg: &LoadedConfig,
    registry: &Registry,
    scope: &LintScope,
    text: Option<&str>,
) -> Result<LintReport, PolicyError> {
    let mut findings = Vec::new();
    scopes::allow_with_also_allow(cfg, &mut findings);
    names::check_names(cfg, registry, &mut findings);
    channel_plugins::missing_channel_plugins(cfg, &mut findings);

    // One lookup per finding: a config with tens of thousands of agents lints in linear time.
    let mut gathered = Gathered::new(findings);
    let mut contexts = Vec::new();
    let mut exec_removals = Vec::new();
    let agents = AgentIndex::new(cfg);
    for (label, ctx) in contexts_for(cfg, scope) {
        let resolution = policy::resolve(cfg, registry, &ctx)?;
        let agent = agents.get(&resolution.resolved.agent);
        let mut found = Vec::new();
        context_checks::check(cfg, registry, &resolution, agent, &mut found);
        for finding in found {
            gathered.merge(finding, &label);
        }
        exec_removals.push(
            resolution
                .trace("exec")
                .filter(|t| !t.visible)
                .and_then(|t| t.removed_by.clone()),
        );
        contexts.push(linted_context(label, &resolution));
    }
    if let Some(finding) = exec_checks::global_exec_config_unused(cfg, &exec_removals) {
        let labels: Vec<String> = contexts.iter().map(|c| c.label.clone()).collect();
        for label in &labels {
            gathered.merge(finding.clone(), label);
        }
    }
    let mut findings = gathered.into_findings();

    if let Some(text) = text {
        let paths: Vec<Option<&str>> = findings.iter().map(|f| f.config_path.as_deref()).collect();
        let places = location::locate_all(text, &cfg.origin, &paths);
        for (finding, place) in findings.iter_mut().zip(places) {
            finding.location = place;
        }
    }
    // Most severe first, then in file order (findings without a place keep theirs, last).
    findings.sort_by(|a, b| {
        let at = |f: &Finding| {
            f.location
                .as_ref()
                .map_or((usize::MAX, usize::MAX), |l| (l.line, l.column))
        };
        b.severity.cmp(&a.severity).then(at(a).cmp(&at(b)))
    });
    Ok(LintReport {
        config: cfg.describe(),
        openclaw: cfg.pack.pack.clone(),
        openclaw_reason: cfg.pack.reason.clone(),
        contexts,
        findings,
    })
}

fn linted_context(label: String, resolution: &Resolution) -> LintedContext {
    LintedContext {
        label,
        agent: resolution.resolved.agent.clone(),
        sandboxed: resolution.resolved.sandboxed,
        visible_tools: resolution.visible().count(),
    }
}

/// What makes two findings the same (their contexts aside).
#[derive(Debug, Clone)]
struct FindingKey {
    kind: FindingKind,
    config_path: Option<String>,
    message: String,
}

impl PartialEq for FindingKey {
    fn eq(&self, other: &Self) -> bool {
        #[cfg(test)]
        tests::count_key_comparison();
        self.kind == other.kind
            && self.config_path == other.config_path
            && self.message == other.message
    }
}

impl Eq for FindingKey {}

impl std::hash::Hash for FindingKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
        self.config_path.hash(state);
        self.message.hash(state);
    }
}

impl FindingKey {
    fn of(finding: &Finding) -> FindingKey {
        FindingKey {
            kind: finding.kind,
            config_path: finding.config_path.clone(),
            message: finding.message.clone(),
        }
    }
}

/// Findings as they are gathered: the same finding from several contexts is reported once,
/// naming them all, in the order first seen. Each finding and each context label costs one
/// hash lookup (a search through all findings, and through a finding's contexts, made lint
/// quadratic in the number of agents).
struct Gathered {
    findings: Vec<Finding>,
    index: HashMap<FindingKey, usize>,
    /// Each finding's context labels, for the duplicate check.
    labels: Vec<HashSet<String>>,
}

impl Gathered {
    /// Starts with the config-wide findings (kept as they are, each one a merge target).
    fn new(findings: Vec<Finding>) -> Gathered {
        let mut index = HashMap::with_capacity(findings.len());
        for (at, finding) in findings.iter().enumerate() {
            index.entry(FindingKey::of(finding)).or_insert(at);
        }
        let labels = findings
            .iter()
            .map(|f| f.contexts.iter().cloned().collect())
            .collect();
        Gathered {
            findings,
            index,
            labels,
        }
    }

    /// Adds a context's finding, or names the context on the same finding found before.
    fn merge(&mut self, mut finding: Finding, label: &str) {
        match self.index.get(&FindingKey::of(&finding)) {
            Some(&at) => {
                if self.labels[at].insert(label.to_string()) {
                    self.findings[at].contexts.push(label.to_string());
                }
            }
            None => {
                finding.contexts = vec![label.to_string()];
                self.index
                    .insert(FindingKey::of(&finding), self.findings.len());
                self.labels.push(HashSet::from([label.to_string()]));
                self.findings.push(finding);
            }
        }
    }

    fn into_findings(self) -> Vec<Finding> {
        self.findings
    }
}

/// Agents by id, for the context checks (a search through the list per context was quadratic).
struct AgentIndex<'a> {
    by_id: HashMap<&'a str, &'a crate::config::AgentInfo>,
}

impl<'a> AgentIndex<'a> {
    fn new(cfg: &'a LoadedConfig) -> AgentIndex<'a> {
        let mut by_id = HashMap::with_capacity(cfg.agents.len());
        for agent in &cfg.agents {
            // The first of a repeated id, as `LoadedConfig::agent` finds it.
            by_id.entry(agent.id.as_str()).or_insert(agent);
        }
        AgentIndex { by_id }
    }

    /// The agent of a resolved context, as `LoadedConfig::agent` finds it.
    fn get(&self, id: &str) -> Option<&'a crate::config::AgentInfo> {
        self.by_id
            .get(crate::config::normalize_agent_id(id).as_str())
            .copied()
    }
}

/// The contexts a scope covers, each with its label.
fn contexts_for(cfg: &LoadedConfig, scope: &LintScope) -> Vec<(String, PolicyContext)> {
    match scope {
        LintScope::Context(ctx) => {
            let agent = ctx.agent.clone().unwrap_or_else(|| cfg.default_agent_id());
            vec![(format!("agent {agent} (given context)"), (**ctx).clone())]
        }
        LintScope::AllAgents => {
            let mut out = Vec::new();
            for agent in &cfg.agents {
                let ctx = PolicyContext {
                    agent: Some(agent.id.clone()),
                    ..PolicyContext::default()
                };
                out.push((format!("agent {}", agent.id), ctx.clone()));
                if sandbox_mode(cfg, agent) == "non-main" {
                    out.push((
                        format!("agent {} (non-main session, sandboxed)", agent.id),
                        PolicyContext {
                            sandboxed: true,
                            ..ctx
                        },
                    ));
                }
            }
            out
        }
    }
}

/// The agent's sandbox mode (its own, else `agents.defaults.sandbox.mode`, else `off`).
fn sandbox_mode(cfg: &LoadedConfig, agent: &crate::config::AgentInfo) -> String {
    agent
        .entry
        .sandbox
        .as_ref()
        .and_then(|s| s.mode.clone())
        .or_else(|| {
            cfg.openclaw
                .agents
                .defaults
                .sandbox
                .as_ref()
                .and_then(|s| s.mode.clone())
        })
        .map(|m| m.trim().to_lowercase())
        .unwrap_or_else(|| "off".to_string())
}

#[cfg(test)]
mod tests;
