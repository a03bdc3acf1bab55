//! A scheduled job's user message in `clawdeck verify`: the one the lab's run sent the model
//! against the one `prompt --user-message` writes for the same job.

use serde::Serialize;

use crate::context::PolicyContext;
use crate::prompt::LlmView;
use crate::prompt::job_message::{ScheduledJob, job_user_message_now};
use crate::verify::prompt_compare::{similarity, without_runtime_facts};

/// The Runtime line's facts of the lab's own home, config and environment, left out on both
/// sides: its fresh workspace (`repo=`), the mock it makes every agent's default model
/// (`default_model=`), its shell (the lab's gateway has none) and a channel plugin's
/// capabilities, which clawdeck does not model. tests/prompt_fidelity.rs checks them all.
const LAB_FACTS: [&str; 4] = ["repo=", "default_model=", "shell=", "capabilities="];

/// The two messages compared, normalised.
#[derive(Debug, Clone, Serialize)]
pub(super) struct MessageComparison {
    pub same: bool,
    pub similarity: f64,
    /// The first line that differs: OpenClaw's and clawdeck's.
    pub first_difference: Option<(String, String)>,
}

/// The lab's job's message as OpenClaw sent it (`real`) against clawdeck's for the run's view
/// and context; `None` for a turn that is no scheduled job's or a pack without the template.
pub(super) fn compare_job_message(
    view: &LlmView,
    run_ctx: &PolicyContext,
    real: &str,
) -> Option<MessageComparison> {
    let job = ScheduledJob {
        // The job's id is the one OpenClaw gave it; its name and message are the lab's.
        id: job_id(real)?.to_string(),
        name: crate::verify::LAB_JOB_NAME.to_string(),
        message: crate::verify::runner::RUN_MESSAGE.to_string(),
    };
    let ours = job_user_message_now(view, run_ctx, &job).ok()?;
    Some(compare(real, &ours))
}

/// The id of the `[cron:<id> <name>]` mark a job's message starts with.
fn job_id(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("[cron:")?;
    rest.split([' ', ']']).next().filter(|id| !id.is_empty())
}

fn compare(real: &str, ours: &str) -> MessageComparison {
    let real = without_lab_facts(&super::normalized_here(real));
    let ours = without_lab_facts(&super::normalized_here(ours));
    let (real_lines, our_lines): (Vec<&str>, Vec<&str>) =
        (real.lines().collect(), ours.lines().collect());
    let first_difference = (0..real_lines.len().max(our_lines.len()))
        .map(|i| (real_lines.get(i).copied(), our_lines.get(i).copied()))
        .find(|(a, b)| a != b)
        .map(|(a, b)| (a.unwrap_or("").to_string(), b.unwrap_or("").to_string()));
    MessageComparison {
        same: real == ours,
        similarity: similarity(&real, &ours),
        first_difference,
    }
}

/// `text` with [`LAB_FACTS`] taken out of its Runtime line.
fn without_lab_facts(text: &str) -> String {
    without_runtime_facts(text, |fact| {
        LAB_FACTS.iter().any(|lab| fact.starts_with(lab))
    })
}

/// The report's line: the same, or how alike and the first line that differs.
pub(super) fn message_lines(message: &MessageComparison) -> String {
    if message.same {
        return "user message: the same as OpenClaw's (the scheduled job's)\n".to_string();
    }
    let mut out = format!(
        "user message: {:.1}% alike (the scheduled job's)\n",
        message.similarity * 100.0
    );
    if let Some((real, ours)) = &message.first_difference {
        out.push_str(&format!(
            "  openclaw       {real}\n  clawdeck       {ours}\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mark_names_the_job_and_lab_facts_are_left_out() {
        assert_eq!(job_id("[cron:abc-1 clawdeck-verify] hi"), Some("abc-1"));
        assert_eq!(job_id("hi"), None);
        let real = "[cron:x n] m\n\nRuntime: agent=main | repo=/tmp/clawdeck-verify-1/w | model=m | channel=telegram | capabilities=inlinebuttons";
        let ours = "[cron:x n] m\n\nRuntime: agent=main | model=m | shell=zsh | channel=telegram | capabilities=none";
        let same = compare(real, ours);
        assert!(same.same, "{same:?}");
        let other = compare(real, "[cron:x n] other\n\nRuntime: agent=main | model=m");
        assert!(!other.same);
        assert_eq!(
            other.first_difference,
            Some(("[cron:x n] m".to_string(), "[cron:x n] other".to_string()))
        );
        assert!(message_lines(&other).contains("  clawdeck       [cron:x n] other\n"));
    }
}
