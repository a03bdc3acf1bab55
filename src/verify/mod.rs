//! Ground truth: what real OpenClaw exposes in a context, and where clawdeck's prediction
//! disagrees with it.
//!
//! - [`mock`]: a recording OpenAI-compatible chat-completions server on loopback.
//! - [`home`] + [`runner`]: the operator's config in an isolated temporary home, the agent's
//!   model served by the mock, `openclaw agent --local` run under the process supervisor (own
//!   process group, hard timeout); the recorded request is the observation.
//! - [`gateway`]: the same question put to a running gateway (`tools.effective`).
//! - [`observed`]: reading a recorded request (direct schemas, Tool Search's deferred directory,
//!   the refusal of an allowlist that leaves nothing).
//! - [`compare`]: one verdict per tool, schema differences by JSON pointer, clawdeck's deciding
//!   rule on each disagreement.

pub mod compare;
pub mod gateway;
pub mod home;
pub mod mock;
pub mod observed;
pub mod runner;

use serde_json::Value;

pub use compare::{Agreement, Comparison, Prediction, SchemaDiff, ToolVerdict, compare};
pub use gateway::{GatewayTarget, observe_gateway};
pub use observed::{ObservedView, Surface};
pub use runner::{RunOptions, VerifyError, find_openclaw, observe_cli};

use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::policy::PolicyError;
use crate::prompt::{LlmView, LlmViewOptions, PromptMode, build_llm_view};
use crate::provider::ProviderApi;

/// clawdeck's own view for the context, in the format the mock receives (OpenAI Chat
/// Completions).
pub fn predict(
    loaded: &LoadedConfig,
    registry: &Registry,
    ctx: &PolicyContext,
) -> Result<LlmView, PolicyError> {
    let options = LlmViewOptions {
        api: Some(ProviderApi::OpenAiChat),
        mode: PromptMode::Full,
    };
    build_llm_view(loaded, registry, ctx, &options)
}

/// Compares a prediction made by [`predict`] with an observation.
pub fn compare_view(view: &LlmView, observed: &ObservedView) -> Comparison {
    let empty = Value::Array(Vec::new());
    let payload = if view.export.payload.is_array() {
        &view.export.payload
    } else {
        &empty
    };
    compare(
        &Prediction {
            resolution: &view.resolution,
            payload,
        },
        observed,
    )
}
