//! The layers of the policy chain (seed 001 §3.3) and the rules each one carries.

use serde::{Deserialize, Serialize};

/// A layer of the chain, in evaluation order. `Owner` is OpenClaw's owner-only removal that runs
/// before the nine layers; clawdeck also uses it to keep local system tools from remote callers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LayerId {
    Owner,
    Profile,
    ProviderProfile,
    Global,
    GlobalProvider,
    Agent,
    AgentProvider,
    Group,
    /// Today's `tools.toolsBySender` (agent, else global); absent from the seed pack.
    Sender,
    Sandbox,
    Subagent,
    /// What a spawned subagent inherits from the turn that spawned it (OpenClaw's stored
    /// `inheritedToolAllow`/`inheritedToolDeny`); in the chain only when a spawner is named.
    Inherited,
}

impl LayerId {
    pub const ALL: [LayerId; 12] = [
        LayerId::Owner,
        LayerId::Profile,
        LayerId::ProviderProfile,
        LayerId::Global,
        LayerId::GlobalProvider,
        LayerId::Agent,
        LayerId::AgentProvider,
        LayerId::Group,
        LayerId::Sender,
        LayerId::Sandbox,
        LayerId::Subagent,
        LayerId::Inherited,
    ];

    /// The id used in JSON and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            LayerId::Owner => "owner",
            LayerId::Profile => "profile",
            LayerId::ProviderProfile => "provider_profile",
            LayerId::Global => "global",
            LayerId::GlobalProvider => "global_provider",
            LayerId::Agent => "agent",
            LayerId::AgentProvider => "agent_provider",
            LayerId::Group => "group",
            LayerId::Sender => "sender",
            LayerId::Sandbox => "sandbox",
            LayerId::Subagent => "subagent",
            LayerId::Inherited => "inherited",
        }
    }

    /// A short column header for tables.
    pub fn short(self) -> &'static str {
        match self {
            LayerId::Owner => "owner",
            LayerId::Profile => "profile",
            LayerId::ProviderProfile => "prov.prof",
            LayerId::Global => "global",
            LayerId::GlobalProvider => "glob.prov",
            LayerId::Agent => "agent",
            LayerId::AgentProvider => "agent.prov",
            LayerId::Group => "group",
            LayerId::Sender => "sender",
            LayerId::Sandbox => "sandbox",
            LayerId::Subagent => "subagent",
            LayerId::Inherited => "inherited",
        }
    }

    /// What the layer is, in a few words.
    pub fn title(self) -> &'static str {
        match self {
            LayerId::Owner => "owner-only gate",
            LayerId::Profile => "profile",
            LayerId::ProviderProfile => "provider profile",
            LayerId::Global => "global policy",
            LayerId::GlobalProvider => "global provider policy",
            LayerId::Agent => "agent policy",
            LayerId::AgentProvider => "agent provider policy",
            LayerId::Group => "group / channel / sender policy",
            LayerId::Sender => "sender policy (tools.toolsBySender)",
            LayerId::Sandbox => "sandbox policy",
            LayerId::Subagent => "subagent policy",
            LayerId::Inherited => "inherited from the spawner",
        }
    }

    pub fn parse(id: &str) -> Option<LayerId> {
        LayerId::ALL.into_iter().find(|l| l.id() == id)
    }
}

impl std::fmt::Display for LayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// One entry of an allow or deny list, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleEntry {
    /// The pattern as written in the config (or the built-in name).
    pub pattern: String,
    /// Where it is written (`agents.list[1].tools.deny[0]`); `None` for built-in rules.
    pub config_path: Option<String>,
    /// For built-in rules: which rule (`default subagent deny list`).
    pub builtin: Option<String>,
}

impl RuleEntry {
    pub fn configured(pattern: impl Into<String>, config_path: String) -> Self {
        RuleEntry {
            pattern: pattern.into(),
            config_path: Some(config_path),
            builtin: None,
        }
    }

    pub(crate) fn builtin(pattern: impl Into<String>, rule: impl Into<String>) -> Self {
        RuleEntry {
            pattern: pattern.into(),
            config_path: None,
            builtin: Some(rule.into()),
        }
    }

    /// A built-in rule that a config key switched on (e.g. `workspaceAccess: "ro"`).
    pub(crate) fn builtin_at(
        pattern: impl Into<String>,
        rule: impl Into<String>,
        config_path: String,
    ) -> Self {
        RuleEntry {
            pattern: pattern.into(),
            config_path: Some(config_path),
            builtin: Some(rule.into()),
        }
    }
}

/// A layer before compilation: what the config (and the built-in rules) say for this context.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerPolicy {
    pub id: LayerId,
    /// OpenClaw's label for the layer (`tools.profile (coding)`, `agents.ops.tools.allow`).
    pub label: String,
    /// Whether the layer applies in this context; an absent layer is skipped.
    pub present: bool,
    /// The config object the layer comes from (`agents.list[1].tools`).
    pub source_path: Option<String>,
    /// `None`: no allowlist (everything not denied is kept).
    pub allow: Option<Vec<RuleEntry>>,
    /// Where the allowlist lives, for "not in the allowlist" explanations.
    pub allow_path: Option<String>,
    pub deny: Vec<RuleEntry>,
    /// Why the layer is present or absent, in words.
    pub note: String,
    /// How to say "not in the allowlist" for this layer (profiles name the profile).
    pub miss_reason: Option<String>,
    /// The entries of a layer that has `alsoAllow` but no allowlist of its own. OpenClaw reads
    /// such a policy as `*` plus the entries: the run builds the default plugin tools and the
    /// optional ones an entry names (`allow: []` with `alsoAllow` is an explicit `*`).
    pub defaults_plus: Option<Vec<String>>,
}

impl LayerPolicy {
    /// Removes each `(tool, rule)` of `removed` at the owner layer of `layers`, which then also
    /// does `label` (with `note`); nothing when `removed` is empty.
    pub(crate) fn deny_at_owner(
        layers: &mut [LayerPolicy],
        label: &str,
        note: String,
        removed: Vec<(String, String)>,
    ) {
        let Some(owner) = layers.iter_mut().find(|l| l.id == LayerId::Owner) else {
            return;
        };
        if removed.is_empty() {
            return;
        }
        owner.also_does(label, note);
        for (tool, rule) in removed {
            owner.deny.push(RuleEntry::builtin(tool, rule));
        }
    }

    /// Labels this (owner) layer as also doing `label`, present from now on, with `note`.
    pub(crate) fn also_does(&mut self, label: &str, note: String) {
        if self.present {
            self.label = format!("{}; {label}", self.label);
            self.note = format!("{}; {note}", self.note);
        } else {
            self.present = true;
            self.label = label.to_string();
            self.note = note;
        }
    }

    pub(crate) fn absent(id: LayerId, label: impl Into<String>, note: impl Into<String>) -> Self {
        LayerPolicy {
            id,
            label: label.into(),
            present: false,
            source_path: None,
            allow: None,
            allow_path: None,
            deny: Vec::new(),
            note: note.into(),
            miss_reason: None,
            defaults_plus: None,
        }
    }
}
