//! A scheduled job's turn (`--scheduled-tools`): the tools its job's cap leaves out and those
//! its missing owner does not get. OpenClaw decides both where it builds the run's tools (the
//! cap: `applyEmbeddedAttemptToolsAllow`), so they are switches: such a tool was never built,
//! whatever the layers say of it.

use super::layer::RuleEntry;
use super::matcher::CompiledList;
use super::sources::LayerInputs;
use crate::semantics::SCHEDULED_JOB;
use crate::semantics::switches::SwitchedOff;

/// Each tool a scheduled turn does not build, and why; nothing for another turn.
pub(super) fn switched_off(inputs: &LayerInputs<'_>) -> Vec<(String, SwitchedOff)> {
    let Some(cap) = inputs.ctx.scheduled_tools.as_deref() else {
        return Vec::new();
    };
    let semantics = &inputs.registry.semantics;
    let off = |reason: String| SwitchedOff {
        path: SCHEDULED_JOB.to_string(),
        reason,
    };
    let capped = Cap::of(cap, inputs);
    inputs
        .registry
        .tools
        .iter()
        .filter(|spec| !spec.is_clawdecks())
        .filter_map(|spec| {
            let name = spec.name.as_str();
            let reason = semantics
                .needs_confirmed_owner(name, inputs.ctx)
                .or_else(|| capped.leaves_out(name))?;
            Some((spec.name.clone(), off(reason)))
        })
        .collect()
}

/// The job's cap as OpenClaw applies it to the built tools.
enum Cap {
    /// `*` among its entries: every built tool stays.
    All,
    /// Empty: the run builds no tool, not even Tool Search's controls.
    Nothing,
    /// The tools it names (groups and plugin ids expanded); Tool Search's controls stay, as
    /// OpenClaw builds them over what the cap left.
    Named {
        list: Box<CompiledList>,
        written: String,
        controls: Vec<String>,
    },
}

impl Cap {
    fn of(cap: &[String], inputs: &LayerInputs<'_>) -> Cap {
        let entries: Vec<&str> = cap.iter().map(|e| e.trim()).collect();
        if entries.contains(&"*") {
            return Cap::All;
        }
        if entries.is_empty() {
            return Cap::Nothing;
        }
        let rules = entries
            .iter()
            .enumerate()
            .map(|(i, e)| RuleEntry::configured(*e, format!("toolsAllow[{i}]")))
            .collect();
        Cap::Named {
            list: Box::new(CompiledList::compile(rules, inputs.registry)),
            written: entries.join(", "),
            controls: inputs.search_controls.clone(),
        }
    }

    /// Why the cap leaves tool `name` out; `None` when it keeps it.
    fn leaves_out(&self, name: &str) -> Option<String> {
        match self {
            Cap::All => None,
            Cap::Nothing => Some(
                "the scheduled job's tool cap is empty (toolsAllow: []): its turn builds no tool"
                    .to_string(),
            ),
            Cap::Named {
                list,
                written,
                controls,
            } => (!list.matches(name) && !controls.iter().any(|c| c == name)).then(|| {
                format!("the scheduled job's tool cap (toolsAllow: {written}) does not name it")
            }),
        }
    }
}
