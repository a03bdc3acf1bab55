//! The MCP server's core, free of the SDK: which tools a session lists and what a call returns.
//! `tools/list` is the policy's answer for the session's context with the schemas the provider
//! export gives; `tools/call` goes through the one pipeline every call takes (policy re-check,
//! aliases, validation, hooks, lane queue, execution, sanitised result). Every failure is a tool
//! error the client reads, never a failed request or a crashed server.

use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use super::clients::{ClientIdentity, FlagContext, identify};
use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::deck::Deck;
use crate::pipeline::{CallOutcome, CallRequest, Pipeline};
use crate::policy::Resolution;
use crate::provider::ProviderApi;
use crate::provider::export::export_tools_as;
use crate::tool::{ContentBlock, ProgressSink, ToolSpec};

/// Contexts whose lists a server keeps at most.
const CONTEXTS_LISTED: usize = 64;

/// One tool as MCP lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedTool {
    pub name: String,
    pub description: String,
    /// Always a JSON Schema object with `type: "object"` (what MCP requires).
    pub input_schema: Map<String, Value>,
}

/// What a `tools/call` answers.
#[derive(Debug, Clone, PartialEq)]
pub struct CallReply {
    pub content: Vec<ContentBlock>,
    pub is_error: bool,
    /// The tool's `details` (or the refusal / validation record), for clients that look.
    pub details: Value,
}

/// The tools the policy shows for `ctx`, exported as the Anthropic API takes them (plain JSON
/// Schema objects, which is what MCP wants too). A refused run (an allowlist that names only
/// unknown tools) lists nothing, as OpenClaw gives its model nothing.
pub fn listed_tools(
    config: &LoadedConfig,
    registry: &Registry,
    ctx: &PolicyContext,
) -> Result<Vec<ListedTool>, String> {
    let resolution = crate::policy::resolve(config, registry, ctx).map_err(|e| e.to_string())?;
    Ok(listed_for(&resolution, registry))
}

/// `listed_tools` for a resolution already made.
pub(crate) fn listed_for(resolution: &Resolution, registry: &Registry) -> Vec<ListedTool> {
    let visible: Vec<ToolSpec> = resolution
        .served()
        .filter_map(|t| registry.get(&t.name).cloned())
        .collect();
    let export = export_tools_as(
        ProviderApi::Anthropic,
        &visible,
        registry.semantics.param_aliases,
    );
    let entries = export.payload.as_array().cloned().unwrap_or_default();
    entries
        .into_iter()
        .filter_map(|entry| {
            let name = entry.get("name")?.as_str()?.to_string();
            let description = entry
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let mut input_schema = match entry.get("input_schema") {
                Some(Value::Object(map)) => map.clone(),
                _ => Map::new(),
            };
            input_schema
                .entry("type")
                .or_insert_with(|| Value::String("object".into()));
            Some(ListedTool {
                name,
                description,
                input_schema,
            })
        })
        .collect()
}

/// Turns a pipeline outcome into what the client reads.
pub fn reply_for(outcome: &CallOutcome) -> CallReply {
    match outcome {
        CallOutcome::Completed {
            result, is_error, ..
        } => CallReply {
            content: if result.content.is_empty() {
                vec![ContentBlock::Text {
                    text: "(no output)".into(),
                }]
            } else {
                result.content.clone()
            },
            is_error: *is_error,
            details: result.details.clone(),
        },
        CallOutcome::Refused { explanation, .. } => {
            let json = outcome.to_result_json();
            CallReply {
                content: vec![ContentBlock::Text {
                    text: format!("{}\n\n{}", outcome.message(), explanation.trim_end()),
                }],
                is_error: true,
                details: json.get("details").cloned().unwrap_or(Value::Null),
            }
        }
        other => {
            let json = other.to_result_json();
            CallReply {
                content: vec![ContentBlock::Text {
                    text: other.message(),
                }],
                is_error: true,
                details: json.get("details").cloned().unwrap_or(Value::Null),
            }
        }
    }
}

/// The MCP server's view of a Deck: the context flags, and the Deck's current config (a reload
/// changes what the next `tools/list` answers).
#[derive(Clone)]
pub struct ToolServer {
    deck: Deck,
    flags: FlagContext,
    lists: Arc<Mutex<ListCache>>,
}

/// Lists already built under the current config, per context (clients ask again and again).
#[derive(Default)]
struct ListCache {
    /// The pipeline the lists were built for; another one means the config changed.
    pipeline: Option<Weak<Pipeline>>,
    lists: HashMap<PolicyContext, Arc<Vec<ListedTool>>>,
}

impl ToolServer {
    pub fn new(deck: Deck, flags: FlagContext) -> ToolServer {
        ToolServer {
            deck,
            flags,
            lists: Arc::default(),
        }
    }

    #[cfg(feature = "http-server")]
    pub(crate) fn deck(&self) -> &Deck {
        &self.deck
    }

    /// Who a client is and which context it gets, from what it announced at `initialize` and
    /// the bearer token it presented over HTTP; the current `mcp.clients` decides.
    pub(crate) fn identify(
        &self,
        client_name: Option<&str>,
        bearer: Option<&str>,
    ) -> ClientIdentity {
        identify(
            &self.deck.config().settings.mcp,
            &self.flags,
            client_name,
            bearer,
        )
    }

    /// The tools a client with this identity lists now.
    pub fn list(&self, identity: &ClientIdentity) -> Result<Arc<Vec<ListedTool>>, String> {
        let state = self.deck.state();
        let ctx = &identity.context;
        {
            let mut cache = self.lists.lock().unwrap_or_else(|p| p.into_inner());
            let current = cache
                .pipeline
                .as_ref()
                .and_then(Weak::upgrade)
                .is_some_and(|p| Arc::ptr_eq(&p, &state.pipeline));
            if !current {
                cache.pipeline = Some(Arc::downgrade(&state.pipeline));
                cache.lists.clear();
            }
            if let Some(list) = cache.lists.get(ctx) {
                return Ok(Arc::clone(list));
            }
        }
        let resolution = state.pipeline.resolution(ctx).map_err(|e| e.to_string())?;
        let list = Arc::new(listed_for(&resolution, &state.registry));
        let mut cache = self.lists.lock().unwrap_or_else(|p| p.into_inner());
        if cache.lists.len() >= CONTEXTS_LISTED {
            cache.lists.clear();
        }
        cache.lists.insert(ctx.clone(), Arc::clone(&list));
        Ok(list)
    }

    /// Runs one call through the pipeline under the client's context, in its lane. `cancel` is the client's
    /// cancellation (`notifications/cancelled`, a closed connection).
    pub async fn call(
        &self,
        identity: &ClientIdentity,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        cancel: CancellationToken,
        progress: Option<ProgressSink>,
    ) -> CallReply {
        let params = Value::Object(arguments.unwrap_or_default());
        let mut request = CallRequest::new(tool, params, identity.context.clone());
        request.cancel = cancel;
        request.progress = progress;
        request.client = Some(identity.label.clone());
        request.lane = identity.lane.clone();
        let outcome = self.deck.pipeline().call(request).await;
        reply_for(&outcome)
    }
}
