//! The App's analysis jobs: the Policy view's comparison with a gateway session, the Lint view's
//! report and the Diff view's what-if. Each runs off the console's task and comes back as a
//! `CoreEvent` numbered by a generation; only the newest request's result is shown.

use super::{App, run_job};
use crate::deck::session_compare::{SessionCheck, session_context};
use crate::event::{AppEvent, CoreEvent};
use crate::views::ViewId;
use crate::views::policy_exec::{ExecCheck, ExecCheckState};
use crate::views::policy_verdicts::{CompareState, SessionCompare};

/// Generations of the analysis requests, and what is out of date (the Lint and Diff views
/// are computed when shown, as the Prompt view is).
#[derive(Debug, Default)]
pub(crate) struct AnalysisJobs {
    session: u64,
    exec: u64,
    invoke_exec: u64,
    lint: u64,
    diff: u64,
    lint_stale: bool,
    diff_stale: bool,
}

impl App {
    /// The generation of the newest session comparison request (tests answer it).
    #[cfg(test)]
    pub(crate) fn session_generation(&self) -> u64 {
        self.analysis.session
    }

    /// `s` in the Policy view: the picker over the gateways' roster (the Sessions view's).
    pub(super) fn open_session_picker(&mut self) {
        if let Some(reason) = &self.sessions.unavailable {
            self.set_status(format!("no gateway session to compare with: {reason}"));
            return;
        }
        let sessions: Vec<(String, String, String)> = self
            .sessions
            .roster
            .rows()
            .into_iter()
            .map(|(gateway, row)| (gateway.to_string(), row.key.clone(), row.agent.clone()))
            .collect();
        let typed_gateway = self
            .sessions
            .roster
            .links()
            .next()
            .map(|(g, _)| g.to_string());
        self.policy.open_session_picker(&sessions, typed_gateway);
    }

    /// Compares the Policy view with a gateway session (None: drops the comparison). The
    /// console's context becomes the session's, so the table and the verdicts answer the same
    /// question.
    pub(super) fn compare_session(&mut self, target: Option<(String, String)>) {
        let Some((gateway, session_key)) = target else {
            if self.policy.session.take().is_some() {
                self.set_status("gateway comparison dropped");
            }
            return;
        };
        let context = session_context(&session_key);
        self.policy.session = Some(SessionCompare {
            gateway,
            session_key,
            context: context.clone(),
            state: CompareState::Asking,
        });
        if self.context != context {
            self.tx.send(AppEvent::SetContext(context));
        }
        self.ask_session();
    }

    /// (Re-)asks the gateway for the picked session.
    fn ask_session(&mut self) {
        let Some(compare) = self.policy.session.as_mut() else {
            return;
        };
        self.analysis.session += 1;
        compare.state = CompareState::Asking;
        let generation = self.analysis.session;
        let (gateway, key) = (compare.gateway.clone(), compare.session_key.clone());
        let deck = self.deck.clone();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            compare.state = CompareState::Failed("no runtime to ask the gateway on".into());
            return;
        };
        let tx = self.tx.clone();
        runtime.spawn(async move {
            let result = deck
                .check_gateway_session(&gateway, &key)
                .await
                .map(Box::new);
            tx.send(AppEvent::Core(CoreEvent::SessionChecked {
                generation,
                result,
            }));
        });
    }

    pub(super) fn session_checked(
        &mut self,
        generation: u64,
        result: Result<Box<SessionCheck>, String>,
    ) -> bool {
        if generation != self.analysis.session {
            return false;
        }
        let Some(compare) = self.policy.session.as_mut() else {
            return false;
        };
        compare.state = match result {
            Ok(check) => CompareState::Ready(check),
            Err(e) => CompareState::Failed(e),
        };
        true
    }

    /// `!` in the Policy view: judge `command` (None drops the verdict).
    pub(super) fn check_exec_command(&mut self, command: Option<String>) {
        self.policy.exec_check = command.map(ExecCheck::asking);
        self.ask_exec();
    }

    /// (Re-)judges the Policy view's command in its context, as a job.
    pub(super) fn ask_exec(&mut self) {
        let Some(check) = self.policy.exec_check.as_mut() else {
            return;
        };
        let (Some(config), Some(resolution)) = (
            self.shown
                .as_ref()
                .map(|s| std::sync::Arc::clone(&s.config)),
            self.policy.resolution.clone(),
        ) else {
            return;
        };
        self.analysis.exec += 1;
        check.state = ExecCheckState::Asking;
        let generation = self.analysis.exec;
        let command = check.command.clone();
        self.verdict_job(config, resolution, command, move |result| {
            CoreEvent::ExecChecked { generation, result }
        });
    }

    /// Judges `command` in `resolution`'s context as a job (reading OpenClaw's approvals
    /// document and looking executables up are side effects, off the UI task); `answer`
    /// makes the event its verdict comes back as.
    fn verdict_job(
        &self,
        config: std::sync::Arc<crate::config::LoadedConfig>,
        resolution: std::sync::Arc<crate::policy::Resolution>,
        command: String,
        answer: impl FnOnce(Result<Box<crate::exec_verdict::LocalVerdicts>, String>) -> CoreEvent
        + Send
        + 'static,
    ) {
        let state = self.openclaw_state.clone();
        let resolver = self.exec_resolver.clone();
        let tx = self.tx.clone();
        run_job(move || {
            let result = crate::exec_verdict::explain_locally(
                &config,
                &resolution,
                &command,
                state.as_deref(),
                &resolver,
            )
            .map(Box::new);
            tx.send(AppEvent::Core(answer(result)));
        });
    }

    /// The Invoke view's exec command changed: judge it in the console's context, as a job.
    pub(super) fn judge_invoke_command(&mut self, command: Option<String>) {
        self.analysis.invoke_exec += 1;
        let Some(command) = command else {
            self.invoke.exec_check = None;
            return;
        };
        let (Some(config), Some(resolution)) =
            (self.config().cloned(), self.policy.resolution.clone())
        else {
            return;
        };
        self.invoke.exec_check = Some(ExecCheck::asking(command.clone()));
        let generation = self.analysis.invoke_exec;
        self.verdict_job(config, resolution, command, move |result| {
            CoreEvent::InvokeJudged { generation, result }
        });
    }

    pub(super) fn invoke_judged(
        &mut self,
        generation: u64,
        result: Result<Box<crate::exec_verdict::LocalVerdicts>, String>,
    ) -> bool {
        if generation != self.analysis.invoke_exec {
            return false;
        }
        let Some(check) = self.invoke.exec_check.as_mut() else {
            return false;
        };
        check.settle(result);
        true
    }

    /// A new exec approval: its command's verdict in its session's context (why it asks), as
    /// a job.
    pub(super) fn judge_approval(
        &mut self,
        gateway: &str,
        approval: &crate::gateway::approvals::Approval,
    ) {
        if approval.kind != crate::gateway::approvals::ApprovalKind::Exec
            || approval.command.is_empty()
        {
            return;
        }
        // Judged as the gateway that raised it would: its config and approvals document,
        // asked through the core.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let deck = self.deck.clone();
            self.approvals
                .judging(gateway, &approval.id, &approval.command);
            let tx = self.tx.clone();
            let (gateway, id) = (gateway.to_string(), approval.id.clone());
            let (session_key, agent, command) = (
                approval.session_key.clone(),
                approval.agent.clone(),
                approval.command.clone(),
            );
            runtime.spawn(async move {
                let result = deck
                    .judge_gateway_approval(&gateway, &session_key, &agent, &command)
                    .await
                    .map(Box::new);
                tx.send(AppEvent::Core(CoreEvent::ApprovalJudged {
                    gateway,
                    id,
                    result,
                }));
            });
            return;
        }
        // No runtime to ask the gateway on (views driven alone): this machine's config and
        // OpenClaw state.
        let Some(shown) = self.shown.clone() else {
            return;
        };
        self.approvals
            .judging(gateway, &approval.id, &approval.command);
        let context = if approval.session_key.is_empty() {
            crate::context::PolicyContext {
                agent: Some(approval.agent.clone()).filter(|a| !a.is_empty()),
                ..Default::default()
            }
        } else {
            session_context(&approval.session_key)
        };
        let (gateway, id, command) = (
            gateway.to_string(),
            approval.id.clone(),
            approval.command.clone(),
        );
        let state = self.openclaw_state.clone();
        let resolver = self.exec_resolver.clone();
        let tx = self.tx.clone();
        run_job(move || {
            let result = shown
                .resolve(&context)
                .and_then(|res| {
                    crate::exec_verdict::explain_locally(
                        &shown.config,
                        &res,
                        &command,
                        state.as_deref(),
                        &resolver,
                    )
                })
                .map(Box::new);
            tx.send(AppEvent::Core(CoreEvent::ApprovalJudged {
                gateway,
                id,
                result,
            }));
        });
    }

    pub(super) fn approval_judged(
        &mut self,
        gateway: String,
        id: String,
        result: Result<Box<crate::exec_verdict::LocalVerdicts>, String>,
    ) -> bool {
        let Some(check) = self.approvals.verdicts.get_mut(&(gateway, id)) else {
            return false;
        };
        check.settle(result);
        true
    }

    pub(super) fn exec_checked(
        &mut self,
        generation: u64,
        result: Result<Box<crate::exec_verdict::LocalVerdicts>, String>,
    ) -> bool {
        if generation != self.analysis.exec {
            return false;
        }
        let Some(check) = self.policy.exec_check.as_mut() else {
            return false;
        };
        check.settle(result);
        true
    }

    /// The context changed: a comparison made for another context no longer applies, and the
    /// what-if's side a moved.
    pub(super) fn context_changed(&mut self) {
        let stale = self
            .policy
            .session
            .as_ref()
            .is_some_and(|s| s.context != self.context);
        if stale && let Some(s) = self.policy.session.take() {
            self.set_status(format!(
                "gateway comparison dropped: the context is no longer session {}'s (s compares again)",
                s.session_key
            ));
        }
        self.analysis.diff_stale = true;
        self.analysis_shown();
    }

    /// A config was installed: lint it and recompute the what-if (now if shown, else when
    /// shown), ask the session again.
    pub(super) fn config_installed(&mut self) {
        if let Some(config) = self.config() {
            self.diff.agents = config.agent_ids();
        }
        self.analysis.lint_stale = true;
        self.analysis.diff_stale = true;
        self.analysis_shown();
        self.ask_session();
    }

    /// Recomputes the Lint or Diff view when it is shown and out of date.
    pub(super) fn analysis_shown(&mut self) {
        if self.view == ViewId::Lint && self.analysis.lint_stale {
            self.refresh_lint();
        }
        if self.view == ViewId::Diff && self.analysis.diff_stale {
            self.refresh_diff();
        }
    }

    fn refresh_lint(&mut self) {
        let (Some(config), Some(registry)) = (self.config().cloned(), self.registry().cloned())
        else {
            return;
        };
        self.analysis.lint += 1;
        self.analysis.lint_stale = false;
        let generation = self.analysis.lint;
        self.lint.pending = true;
        let state = self.openclaw_state.clone();
        let tx = self.tx.clone();
        run_job(move || {
            let text = crate::lint::config_text(&config);
            let result = crate::lint::lint(
                &config,
                &registry,
                &crate::lint::LintScope::AllAgents,
                text.as_deref(),
            )
            .map(|mut report| {
                // The host approvals document OpenClaw stored, as `clawdeck lint` reads it.
                use crate::exec_verdict::approvals_doc::{read_state, state_locator};
                if let Some(state) = &state
                    && let Ok(Some(doc)) = read_state(state)
                {
                    let from = state_locator(state);
                    report.add(crate::lint::approvals_doc_findings(&doc, &from));
                }
                Box::new(report)
            })
            .map_err(|e| e.to_string());
            tx.send(AppEvent::Core(CoreEvent::Linted { generation, result }));
        });
    }

    pub(super) fn linted(
        &mut self,
        generation: u64,
        result: Result<Box<crate::lint::LintReport>, String>,
    ) -> bool {
        if generation != self.analysis.lint {
            return false;
        }
        match result {
            Ok(report) => self.lint.set_report(*report),
            Err(e) => {
                self.lint.pending = false;
                self.lint.error = Some(e);
            }
        }
        true
    }

    pub(super) fn refresh_diff(&mut self) {
        let (Some(config), Some(registry)) = (self.config().cloned(), self.registry().cloned())
        else {
            return;
        };
        self.analysis.diff += 1;
        self.analysis.diff_stale = false;
        let generation = self.analysis.diff;
        self.diff.pending = true;
        let a = self.context.clone();
        let b = self.diff.what_if.context_b(&a);
        self.diff.side_a = a.clone();
        // The what-if cycles start past a's own agent and pack: picking them changes nothing.
        self.diff.a_agent = self
            .policy
            .resolution
            .as_ref()
            .map(|r| r.resolved.agent.clone());
        self.diff.a_pack = Some(config.pack.pack.clone());
        let version = self.diff.what_if.version.clone();
        let tx = self.tx.clone();
        run_job(move || {
            let result =
                crate::policy::diff::diff_what_if(&config, &registry, &a, &b, version.as_deref())
                    .map(Box::new);
            // Synced packs live in the data dir: read here, off the console's task.
            let packs = crate::semantics::available_packs();
            tx.send(AppEvent::Core(CoreEvent::Diffed {
                generation,
                result,
                packs,
            }));
        });
    }

    pub(super) fn diffed(
        &mut self,
        generation: u64,
        result: Result<Box<crate::policy::diff::ResolutionDiff>, String>,
        packs: Vec<String>,
    ) -> bool {
        if generation != self.analysis.diff {
            return false;
        }
        self.diff.packs = packs;
        self.diff.pending = false;
        match result {
            Ok(d) => {
                self.diff.result = Some(*d);
                self.diff.error = None;
            }
            Err(e) => self.diff.error = Some(e),
        }
        let n = self.diff.result.as_ref().map_or(0, |d| {
            d.appear.len() + d.disappear.len() + d.only_in_a.len() + d.only_in_b.len()
        });
        self.diff.selected = self.diff.selected.min(n.saturating_sub(1));
        true
    }
}
