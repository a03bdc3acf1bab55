//! The one path every tool call takes, whoever makes it (`clawdeck invoke`, the console, an
//! agent loop): policy check → parameter aliases → schema validation → before_tool_call hooks →
//! lane queue → execute with combined cancellation → sanitised result.
//!
//! The pipeline publishes nothing itself: callers subscribe to the `LaneQueue` it was given to
//! see calls queue, start and finish.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use serde_json::Value;
use tokio_util::sync::CancellationToken;

pub use crate::call_outcome::CallOutcome;

use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::decision_log::{CallFacts, DecisionRecord, DecisionSink};
use crate::local_tools::{ToolRuntime, ToolSet};
use crate::policy;
use crate::queue::{LaneQueue, QueueError};
use crate::stages::aliases::apply_param_aliases;
use crate::stages::cancel::{CombinedGuard, combine};
use crate::stages::hooks::{HookVerdict, run_before_tool_call};
use crate::stages::results::{error_result, sanitize_result};
use crate::stages::validate::ParamValidator;
use crate::tool::{ProgressSink, SharedTool, ToolCall, ToolError, ToolSpec};

/// One call to make.
#[derive(Clone)]
pub struct CallRequest {
    pub tool: String,
    pub params: Value,
    pub context: PolicyContext,
    /// Lane to run in; `main` (or `subagent` for a subagent context) when absent.
    pub lane: Option<String>,
    /// The LLM's tool-call id; one is made up when absent.
    pub call_id: Option<String>,
    /// The caller's cancellation (Ctrl-C, a console key, a dropped request).
    pub cancel: CancellationToken,
    pub progress: Option<ProgressSink>,
    /// Who is calling, for the decision log (an MCP client's name); the sink's default when
    /// absent.
    pub client: Option<String>,
}

impl CallRequest {
    pub fn new(tool: impl Into<String>, params: Value, context: PolicyContext) -> CallRequest {
        CallRequest {
            tool: tool.into(),
            params,
            context,
            lane: None,
            call_id: None,
            cancel: CancellationToken::new(),
            progress: None,
            client: None,
        }
    }
}

/// Contexts whose answers a pipeline keeps at most.
const CONTEXTS_CACHED: usize = 64;

/// What a pipeline keeps for one context.
#[derive(Default)]
struct ContextTools {
    resolution: Option<Arc<policy::Resolution>>,
    tools: Option<Arc<ToolSet>>,
}

/// The execution pipeline for one config.
pub struct Pipeline {
    config: Arc<LoadedConfig>,
    registry: Arc<Registry>,
    queue: LaneQueue,
    runtime: ToolRuntime,
    /// Fires on shutdown; combined with every call's own token.
    run_cancel: CancellationToken,
    validators: Mutex<HashMap<String, Arc<ParamValidator>>>,
    /// Per context: the policy's answer and the runnable tools. A pipeline's config never
    /// changes (a reload builds a new pipeline), so both hold for its life; a caller that
    /// cycles through many contexts only empties the cache.
    per_context: Mutex<HashMap<PolicyContext, ContextTools>>,
    next_call: std::sync::atomic::AtomicU64,
    /// Where every call's decision is recorded; none by default.
    decisions: Mutex<Option<DecisionSink>>,
}

impl Pipeline {
    pub fn new(
        config: Arc<LoadedConfig>,
        registry: Arc<Registry>,
        queue: LaneQueue,
        runtime: ToolRuntime,
    ) -> Pipeline {
        Pipeline {
            config,
            registry,
            queue,
            runtime,
            run_cancel: CancellationToken::new(),
            validators: Mutex::new(HashMap::new()),
            per_context: Mutex::new(HashMap::new()),
            next_call: std::sync::atomic::AtomicU64::new(1),
            decisions: Mutex::new(None),
        }
    }

    pub fn queue(&self) -> &LaneQueue {
        &self.queue
    }

    pub fn runtime(&self) -> &ToolRuntime {
        &self.runtime
    }

    pub fn config(&self) -> &LoadedConfig {
        &self.config
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Cancels every running and queued call (shutdown).
    pub fn cancel_all(&self) {
        self.run_cancel.cancel();
    }

    /// The policy's answer for a context (computed once per context).
    pub fn resolution(
        &self,
        ctx: &PolicyContext,
    ) -> Result<Arc<policy::Resolution>, policy::PolicyError> {
        if let Some(cached) = self.cached(ctx, |c| c.resolution.clone()) {
            return Ok(cached);
        }
        let resolution = Arc::new(policy::resolve(&self.config, &self.registry, ctx)?);
        self.remember(ctx, |c| c.resolution = Some(Arc::clone(&resolution)));
        Ok(resolution)
    }

    /// The runnable tools for a context, built once per context.
    fn shared_tool_set(&self, ctx: &PolicyContext) -> Result<Arc<ToolSet>, ToolError> {
        if let Some(cached) = self.cached(ctx, |c| c.tools.clone()) {
            return Ok(cached);
        }
        let tools = Arc::new(self.tool_set(ctx)?);
        self.remember(ctx, |c| c.tools = Some(Arc::clone(&tools)));
        Ok(tools)
    }

    fn cached<T>(
        &self,
        ctx: &PolicyContext,
        pick: impl Fn(&ContextTools) -> Option<T>,
    ) -> Option<T> {
        let cache = self.per_context.lock().unwrap_or_else(|p| p.into_inner());
        cache.get(ctx).and_then(pick)
    }

    fn remember(&self, ctx: &PolicyContext, set: impl FnOnce(&mut ContextTools)) {
        let mut cache = self.per_context.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= CONTEXTS_CACHED && !cache.contains_key(ctx) {
            cache.clear();
        }
        set(cache.entry(ctx.clone()).or_default());
    }

    /// The runnable tools for a context.
    pub(crate) fn tool_set(&self, ctx: &PolicyContext) -> Result<ToolSet, ToolError> {
        ToolSet::standard(&self.config, &self.registry, ctx, &self.runtime)
    }

    fn validator(&self, spec: &ToolSpec) -> Result<Arc<ParamValidator>, String> {
        let mut cache = self.validators.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = cache.get(&spec.name) {
            return Ok(Arc::clone(v));
        }
        let v = Arc::new(ParamValidator::new(&spec.name, &spec.parameters)?);
        cache.insert(spec.name.clone(), Arc::clone(&v));
        Ok(v)
    }

    /// Records every later call's decision in this sink (None: stop recording).
    pub fn set_decision_sink(&self, sink: Option<DecisionSink>) {
        *self.decisions.lock().unwrap_or_else(|p| p.into_inner()) = sink;
    }

    pub(crate) fn decision_sink(&self) -> Option<DecisionSink> {
        self.decisions
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Runs one call through every stage, and records the decision when a sink is set.
    pub async fn call(&self, request: CallRequest) -> CallOutcome {
        let Some(sink) = self.decision_sink() else {
            return self.run_stages(&request).await;
        };
        let started_at = SystemTime::now();
        let started = Instant::now();
        let outcome = self.run_stages(&request).await;
        let facts = CallFacts {
            client: request.client.as_deref().or(sink.default_client.as_deref()),
            context: &request.context,
            requested_tool: &request.tool,
            params: &request.params,
            started_at,
            duration: started.elapsed(),
        };
        sink.log
            .append(&DecisionRecord::from_call(&facts, &outcome));
        outcome
    }

    async fn run_stages(&self, request: &CallRequest) -> CallOutcome {
        let tool_name = self.registry.canonical(&request.tool);
        match self.admitted_call(request, &tool_name).await {
            Ok(admitted) => self.queue_and_execute(request, tool_name, admitted).await,
            Err(refused) => *refused,
        }
    }

    /// Stages 1 to 4: the call as it goes to the lane queue, or the outcome that stopped it.
    async fn admitted_call(
        &self,
        request: &CallRequest,
        tool_name: &str,
    ) -> Result<AdmittedCall, Box<CallOutcome>> {
        let tool = self.policy_allowed_tool(request, tool_name)?;
        let spec = tool.spec().clone();
        let params = aliased_params(request, &spec);
        self.check_params(&spec, tool_name, &params, None)?;
        let call_id = request.call_id.clone().unwrap_or_else(|| {
            format!(
                "call_{}",
                self.next_call
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
            )
        });
        let cancel = combine(&[&request.cancel, &self.run_cancel]);
        let guard = CombinedGuard(cancel.clone());
        let hooks = &self.config.settings.hooks.before_tool_call;
        let ctx = &request.context;
        let validated = params.clone();
        let (params, hook_steps) =
            match run_before_tool_call(hooks, tool_name, &call_id, params, ctx, &cancel).await {
                HookVerdict::Proceed { params, steps } => (params, steps),
                HookVerdict::Block { reason, steps } => {
                    return Err(Box::new(CallOutcome::Blocked {
                        tool: tool_name.to_string(),
                        reason,
                        hooks: steps,
                    }));
                }
                HookVerdict::Cancelled => {
                    return Err(Box::new(CallOutcome::Cancelled {
                        tool: tool_name.to_string(),
                        killed_by_operator: false,
                    }));
                }
            };
        // Parameters a hook rewrote are checked again: a hook is not trusted to keep the schema.
        if params != validated {
            self.check_params(
                &spec,
                tool_name,
                &params,
                Some("after before_tool_call hooks"),
            )?;
        }
        Ok(AdmittedCall {
            tool,
            call_id,
            params,
            hook_steps,
            cancel,
            _cancel_guard: guard,
        })
    }

    /// Stage 1, policy: the runnable tool, if the context's policy shows it.
    fn policy_allowed_tool(
        &self,
        request: &CallRequest,
        tool_name: &str,
    ) -> Result<SharedTool, Box<CallOutcome>> {
        let ctx = &request.context;
        let resolution = self.resolution(ctx).map_err(|err| {
            Box::new(CallOutcome::UnknownTool {
                tool: tool_name.to_string(),
                message: err.to_string(),
            })
        })?;
        let Some(trace) = resolution.trace(tool_name) else {
            let known: Vec<&str> = resolution.tools.iter().map(|t| t.name.as_str()).collect();
            return Err(Box::new(CallOutcome::UnknownTool {
                message: format!(
                    "Unknown tool \"{}\" (known: {})",
                    request.tool.trim(),
                    known.join(", ")
                ),
                tool: tool_name.to_string(),
            }));
        };
        if !trace.visible {
            return Err(Box::new(CallOutcome::Refused {
                tool: tool_name.to_string(),
                explanation: policy::render_tool(&resolution, trace),
                trace: Box::new(trace.clone()),
            }));
        }
        // The sandbox decision is the policy's: `--sandboxed`, or the config's sandbox mode
        // (`all`, `non-main` for a non-main session) sandboxes the file tools too.
        let tool_ctx = PolicyContext {
            sandboxed: resolution.resolved.sandboxed,
            ..ctx.clone()
        };
        let tools = self.shared_tool_set(&tool_ctx).map_err(|err| {
            Box::new(self.failed(tool_name, "main", Vec::new(), Instant::now(), err))
        })?;
        tools.get(tool_name).ok_or_else(|| {
            Box::new(CallOutcome::UnknownTool {
                message: format!("{tool_name} is in the catalog but clawdeck has no runner for it"),
                tool: tool_name.to_string(),
            })
        })
    }

    /// Stage 3, validation against the tool's schema; `after` says which step changed them.
    fn check_params(
        &self,
        spec: &ToolSpec,
        tool_name: &str,
        params: &Value,
        after: Option<&str>,
    ) -> Result<(), Box<CallOutcome>> {
        let problems = match self.validator(spec) {
            Ok(validator) => validator.problems(params),
            // The first check compiled this schema; a second check has nothing new to say.
            Err(_) if after.is_some() => Vec::new(),
            Err(problem) => vec![problem],
        };
        if problems.is_empty() {
            return Ok(());
        }
        Err(Box::new(CallOutcome::InvalidParams {
            tool: tool_name.to_string(),
            problems: match after {
                Some(step) => problems
                    .into_iter()
                    .map(|p| format!("{step}: {p}"))
                    .collect(),
                None => problems,
            },
        }))
    }

    /// Stages 5 to 7: the lane queue runs the tool; its result becomes the outcome.
    async fn queue_and_execute(
        &self,
        request: &CallRequest,
        tool_name: String,
        admitted: AdmittedCall,
    ) -> CallOutcome {
        let AdmittedCall {
            tool,
            call_id,
            params,
            hook_steps,
            cancel,
            _cancel_guard,
        } = admitted;
        let lane = lane_of(request);
        // The tool watches a child of the call's token: the queue's `kill` (the operator) fires
        // only this one, so the outcome can say who stopped the call.
        let tool_cancel = cancel.child_token();
        let call = ToolCall {
            call_id,
            params,
            cancel: tool_cancel.clone(),
            progress: request.progress.clone().unwrap_or_else(|| Arc::new(|_| {})),
        };
        let started = Instant::now();
        let label = queue_label(request, &tool_name, &call);
        let run = tool.execute(call);
        let ran = self
            .queue
            .run_result(&lane, &label, &tool_cancel, run)
            .await;

        // 7. Result.
        match ran {
            Ok(Ok(result)) => {
                let result = sanitize_result(result, &tool_name);
                let is_error = result.is_error();
                CallOutcome::Completed {
                    tool: tool_name,
                    result,
                    is_error,
                    hooks: hook_steps,
                    lane,
                    duration: started.elapsed(),
                }
            }
            Ok(Err(ToolError::Cancelled)) | Err(QueueError::Cancelled { .. }) => {
                CallOutcome::Cancelled {
                    tool: tool_name,
                    killed_by_operator: tool_cancel.is_cancelled() && !cancel.is_cancelled(),
                }
            }
            Ok(Err(err)) => self.failed(&tool_name, &lane, hook_steps, started, err),
            Err(queue_err) => self.failed(
                &tool_name,
                &lane,
                hook_steps,
                started,
                ToolError::failed(queue_err.to_string()),
            ),
        }
    }

    /// Any error except cancellation becomes a `{"error": ...}` result (seed 001 §4.5).
    fn failed(
        &self,
        tool: &str,
        lane: &str,
        hooks: Vec<crate::stages::hooks::HookStep>,
        started: Instant,
        err: ToolError,
    ) -> CallOutcome {
        CallOutcome::Completed {
            tool: tool.to_string(),
            result: sanitize_result(error_result(&err.to_string()), tool),
            is_error: true,
            hooks,
            lane: lane.to_string(),
            duration: started.elapsed(),
        }
    }
}

/// A call that passed policy, validation and the hooks, ready for its lane.
struct AdmittedCall {
    tool: SharedTool,
    call_id: String,
    params: Value,
    hook_steps: Vec<crate::stages::hooks::HookStep>,
    cancel: CancellationToken,
    /// Held until the call ends: the combined token's watchers stop with it.
    _cancel_guard: CombinedGuard,
}

/// Stage 2, aliases: the request's parameters (`{}` for none), with the original names'
/// aliases applied for tools that declare the originals.
fn aliased_params(request: &CallRequest, spec: &ToolSpec) -> Value {
    let mut params = if request.params.is_null() {
        Value::Object(Default::default())
    } else {
        request.params.clone()
    };
    let declares = |key: &str| {
        spec.parameters
            .pointer(&format!("/properties/{key}"))
            .is_some()
    };
    if ["path", "oldText", "newText"].iter().any(|k| declares(k)) {
        apply_param_aliases(&mut params);
    }
    params
}

/// The lane a call runs in: the request's, else `main` (`subagent` for a subagent context).
fn lane_of(request: &CallRequest) -> String {
    request
        .lane
        .clone()
        .filter(|l| !l.trim().is_empty())
        .unwrap_or_else(|| {
            if request.context.subagent {
                "subagent".to_string()
            } else {
                "main".to_string()
            }
        })
}

/// The queue's label for a call; another program's call (an MCP client) says whose it is.
fn queue_label(request: &CallRequest, tool_name: &str, call: &ToolCall) -> String {
    match request.client.as_deref() {
        Some(client) => format!(
            "{} · {}",
            call_label(tool_name, &call.params, &call.call_id),
            printable(client, 24)
        ),
        None => call_label(tool_name, &call.params, &call.call_id),
    }
}

/// What the lane queue shows for a call: the tool and what it acts on (`exec: make test`,
/// `read: notes.txt`), else the call id. One line, at most 60 characters.
pub fn call_label(tool: &str, params: &serde_json::Value, call_id: &str) -> String {
    const KEYS: [&str; 8] = [
        "command",
        "path",
        "file_path",
        "url",
        "query",
        "message",
        "sessionId",
        "action",
    ];
    let subject = KEYS
        .iter()
        .find_map(|k| params.get(*k).and_then(serde_json::Value::as_str))
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(call_id);
    printable(&format!("{tool}: {subject}"), 60)
}

/// One line of at most `max` characters with no control characters: labels quote what a model
/// or a client sent, and they are drawn on the operator's terminal.
fn printable(text: &str, max: usize) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let clean: String = one_line.chars().filter(|c| !c.is_control()).collect();
    if clean.chars().count() > max {
        clean.chars().take(max - 1).collect::<String>() + "…"
    } else {
        clean
    }
}

#[cfg(test)]
mod label_tests {
    use super::{call_label, printable};
    use serde_json::json;

    #[test]
    fn the_label_names_the_command_or_path() {
        assert_eq!(
            call_label("exec", &json!({"command": "make\n  test"}), "call_5"),
            "exec: make test"
        );
        assert_eq!(
            call_label("read", &json!({"file_path": "notes.txt"}), "call_6"),
            "read: notes.txt"
        );
        assert_eq!(
            call_label("session_status", &json!({}), "call_7"),
            "session_status: call_7"
        );
        assert_eq!(
            call_label("exec", &json!({"command": "x".repeat(100)}), "c")
                .chars()
                .count(),
            60
        );
    }

    #[test]
    fn labels_carry_no_control_characters() {
        let label = call_label(
            "exec",
            &json!({"command": "echo \u{1b}]0;PWNED\u{7} \u{1b}[2J done"}),
            "c",
        );
        assert!(!label.chars().any(char::is_control), "{label:?}");
        assert_eq!(label, "exec: echo ]0;PWNED [2J done");
        assert_eq!(printable("claude\u{1b}[31m-code", 24), "claude[31m-code");
    }
}
