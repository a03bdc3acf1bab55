//! A scheduled job's turn (`--scheduled-tools`): the tools its job's cap leaves out and those
//! its missing owner does not get. OpenClaw decides both where it builds the run's tools (the
//! cap: `applyEmbeddedAttemptToolsAllow`), so they are switches: such a tool was never built,
//! whatever the layers say of it.

use super::layer::RuleEntry;
use super::matcher::CompiledList;
use super::sources::LayerInputs;
use crate::catalog::Registry;
use crate::context::PolicyContext;
use crate::semantics::switches::SwitchedOff;

/// Where a switched-off tool's cause is written for a scheduled turn: the job, not the config.
const SCHEDULED_JOB: &str = "the scheduled job (--scheduled-tools)";

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
    let capped = Cap::of(cap, inputs.registry, &inputs.search_controls);
    inputs
        .registry
        .tools
        .iter()
        .filter(|spec| !spec.is_clawdecks())
        .filter_map(|spec| {
            let name = spec.name.as_str();
            let reason = semantics
                .needs_confirmed_owner(name, inputs.ctx)
                .or_else(|| semantics.delivery_drops(name, inputs.ctx))
                .or_else(|| capped.leaves_out(name))?;
            Some((spec.name.clone(), off(reason)))
        })
        .collect()
}

/// The widget tool a scheduled turn keeps for pinned dashboard widgets only: its cap names it
/// (OpenClaw's `isToolExplicitlyAllowedByFactoryPolicy`; `*` does) and the turn runs outside
/// the job's own run session, with no client that shows inline widgets. `None` otherwise, and
/// where the release has no such rule.
pub(super) fn pinned_widget<'a>(registry: &'a Registry, ctx: &PolicyContext) -> Option<&'a str> {
    let rules = registry.semantics.scheduled_turn.as_ref()?;
    let tool = rules.pinned_widget.as_ref()?.tool.as_str();
    let cap = ctx.scheduled_tools.as_deref()?;
    if ctx.in_cron_run_session() || ctx.names_client() {
        return None;
    }
    Cap::of(cap, registry, &[]).names(tool).then_some(tool)
}

/// Why the turn has the pinned widget tool `name`, when it is the one [`pinned_widget`] keeps.
pub(super) const PINNED_BECAUSE: &str = "a scheduled job's cap names it outside the job's own \
     session: OpenClaw keeps it for pinned dashboard widgets only (no client shows inline ones)";

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
    fn of(cap: &[String], registry: &Registry, controls: &[String]) -> Cap {
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
            list: Box::new(CompiledList::compile(rules, registry)),
            written: entries.join(", "),
            controls: controls.to_vec(),
        }
    }

    /// Whether the cap names tool `name` (`*` names every tool, an empty cap none).
    fn names(&self, name: &str) -> bool {
        match self {
            Cap::All => true,
            Cap::Nothing => false,
            Cap::Named { list, .. } => list.matches(name),
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

/// Why OpenClaw will not run a job an agent made: its creator's account (not `default`) is no
/// longer an account of the channel its creator's session names, or that session names none.
/// OpenClaw checks it before building the run's tools (`requireConfiguredAccount`); `None` when
/// the job runs.
pub(crate) fn unavailable_creator_account(
    cfg: &crate::config::LoadedConfig,
    ctx: &PolicyContext,
    from: crate::context::CreatorChannel,
) -> Option<String> {
    let owner = ctx.job_owner_context(from)?;
    let account = owner.account.as_deref().map(|a| a.trim().to_lowercase())?;
    if account.is_empty() || account == "default" {
        return None;
    }
    let channel = owner.channel.as_deref().map(|c| c.trim().to_lowercase());
    let known = channel.as_deref().is_some_and(|channel| {
        cfg.accounts(channel)
            .iter()
            .any(|a| a.trim().eq_ignore_ascii_case(&account))
    });
    (!known).then(|| match channel {
        Some(channel) => format!(
            "the job's creator account \"{account}\" is not an account of channels.{channel}: OpenClaw does not run a job an agent made from an account no longer there (add the account back, or have the agent make the job again from the intended account)"
        ),
        None => format!(
            "the job's creator account \"{account}\" belongs to no channel: its creator's session names none, nor did its creator's turn come over one (--job-owner-channel): OpenClaw does not run a job an agent made from such an account"
        ),
    })
}
