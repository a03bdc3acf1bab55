//! The policy layer: which tools a context may see, and why (seed 001 §3).
//!
//! `resolve` walks every registered tool through OpenClaw's chain (owner-only gate, then the nine
//! layers of seed 001 §3.3, AND-ed) and returns a `Resolution`: the final list plus, for every
//! tool and every layer, skipped / kept / removed with the rule that decided it.

pub(crate) mod call_notes;
mod channel_groups;
pub mod diff;
mod engine;
mod feishu_tools;
mod inherited;
pub mod layer;
pub mod matcher;
pub(crate) use crate::semantics::normalize;
mod plugin_selection;
mod render;
mod scheduled_cap;
pub(crate) mod sender_keys;
pub mod sources;
mod switches;
pub mod trace;

pub use engine::{resolve, resolve_layers};
pub use layer::{LayerId, LayerPolicy, RuleEntry};
pub use normalize::normalize_tool_name;
pub use render::{
    render_context, render_served_list, render_table, render_tool, render_tool_list,
    render_warnings,
};
pub use trace::{
    Decision, LayerDecision, LayerSummary, PolicyWarning, Removal, RemovalKind, Resolution,
    ResolvedContext, RuleRef, SharedText, ToolTrace,
};

/// Why a resolution could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error("unknown agent \"{id}\" (configured: {})", if known.is_empty() { "none".to_string() } else { known.join(", ") })]
    UnknownAgent { id: String, known: Vec<String> },
}

#[cfg(test)]
mod release_tests;
#[cfg(test)]
mod tests;
