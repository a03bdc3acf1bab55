//! What each model provider is sent: normalised tool schemas and the exact `tools` payload of
//! OpenAI Chat Completions, OpenAI Responses, Anthropic Messages and Gemini.
//!
//! Pure functions over `ToolSpec`s; the CLI and the console only render their results.

pub mod export;
pub mod gemini;
pub(crate) mod normalize;

use std::fmt;

use serde::Serialize;

pub use export::{
    ProviderExport, check_payload, export_tools, export_tools_as, prepare_parameters,
    prepare_parameters_as, valid_tool_name,
};
pub use gemini::{GEMINI_FORBIDDEN_KEYWORDS, clean_for_gemini, gemini_violations};
pub use normalize::normalize_parameters;

/// The request formats clawdeck can render a tool set for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProviderApi {
    /// OpenAI Chat Completions (`tools: [{type: "function", function: {...}}]`); also what
    /// OpenAI-compatible providers take.
    #[serde(rename = "openai")]
    OpenAiChat,
    /// OpenAI Responses (`tools: [{type: "function", name, ...}]`).
    #[serde(rename = "openai-responses")]
    OpenAiResponses,
    /// Anthropic Messages (`tools: [{name, description, input_schema}]`).
    Anthropic,
    /// Gemini `generateContent` (`tools: [{functionDeclarations: [...]}]`).
    Gemini,
}

impl ProviderApi {
    pub const ALL: [ProviderApi; 4] = [
        ProviderApi::OpenAiChat,
        ProviderApi::OpenAiResponses,
        ProviderApi::Anthropic,
        ProviderApi::Gemini,
    ];

    /// The name used on the command line and in JSON.
    pub fn id(self) -> &'static str {
        match self {
            ProviderApi::OpenAiChat => "openai",
            ProviderApi::OpenAiResponses => "openai-responses",
            ProviderApi::Anthropic => "anthropic",
            ProviderApi::Gemini => "gemini",
        }
    }

    /// An API named exactly (or by one of pi-ai's API ids).
    pub fn parse(name: &str) -> Option<ProviderApi> {
        match name.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-chat" | "openai-completions" | "chat-completions" => {
                Some(ProviderApi::OpenAiChat)
            }
            "openai-responses" | "responses" | "openai-codex-responses" => {
                Some(ProviderApi::OpenAiResponses)
            }
            "anthropic" | "anthropic-messages" => Some(ProviderApi::Anthropic),
            "gemini"
            | "google"
            | "google-generative-ai"
            | "google-gemini-cli"
            | "google-vertex" => Some(ProviderApi::Gemini),
            _ => None,
        }
    }

    /// The API a provider id speaks: an exact API name first; then Anthropic when the id
    /// contains `anthropic`, Gemini when it contains `google` or `gemini` (OpenClaw's test),
    /// Responses for `*responses*` / `*codex*`; anything else is OpenAI-compatible.
    pub(crate) fn for_provider(provider: &str) -> ProviderApi {
        if let Some(api) = ProviderApi::parse(provider) {
            return api;
        }
        let id = provider.to_ascii_lowercase();
        // Anthropic first: OpenClaw never Gemini-cleans an Anthropic model served by Google
        // (`google-vertex-anthropic`).
        if id.contains("anthropic") {
            ProviderApi::Anthropic
        } else if id.contains("google") || id.contains("gemini") {
            ProviderApi::Gemini
        } else if id.contains("responses") || id.contains("codex") {
            ProviderApi::OpenAiResponses
        } else {
            ProviderApi::OpenAiChat
        }
    }
}

impl fmt::Display for ProviderApi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn provider_ids_map_to_apis() {
        assert_eq!(ProviderApi::for_provider("openai"), ProviderApi::OpenAiChat);
        assert_eq!(
            ProviderApi::for_provider("openai-responses"),
            ProviderApi::OpenAiResponses
        );
        assert_eq!(
            ProviderApi::for_provider("google-antigravity"),
            ProviderApi::Gemini
        );
        assert_eq!(
            ProviderApi::for_provider("amazon-bedrock-anthropic"),
            ProviderApi::Anthropic
        );
        assert_eq!(
            ProviderApi::for_provider("openrouter"),
            ProviderApi::OpenAiChat
        );
        for api in ProviderApi::ALL {
            assert_eq!(ProviderApi::parse(api.id()), Some(api));
        }
    }
}
