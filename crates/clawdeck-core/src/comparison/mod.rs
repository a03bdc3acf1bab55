//! What real OpenClaw showed a model against clawdeck's prediction for the same context.
//!
//! - [`observed`]: reading a recorded request (direct schemas, Tool Search's deferred directory,
//!   the refusal of an allowlist that leaves nothing).
//! - [`compare`]: one verdict per tool, schema differences by JSON pointer, clawdeck's deciding
//!   rule on each disagreement.
//! - [`prompt_compare`]: the system prompt real OpenClaw sent against clawdeck's, normalised and
//!   compared section by section.
//!
//! Obtaining the observation (a mock LLM, private gateways) is the lab's job (`clawdeck-verify`);
//! a live session's check is the facade's (`clawdeck-deck`).

pub mod compare;
pub mod observed;
pub mod prompt_compare;

use std::collections::BTreeSet;

use serde_json::Value;

pub use compare::{Agreement, Comparison, Prediction, SchemaDiff, ToolVerdict, compare};
pub use observed::{ObservedView, Surface};

use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::policy::PolicyError;
use crate::prompt::{LlmView, LlmViewOptions, PromptMode, build_llm_view};
use crate::provider::ProviderApi;
use crate::tool::ToolSource;

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

/// clawdeck's own tools in the registry: the remote clawbot_router and the local system tools.
pub fn own_tools(registry: &Registry) -> BTreeSet<String> {
    registry
        .names()
        .filter_map(|name| registry.get(name))
        .filter(|spec| spec.flags.local_system || spec.source == ToolSource::Remote)
        .map(|spec| spec.name.clone())
        .collect()
}

/// Compares a prediction made by [`predict`] with an observation.
pub fn compare_view(view: &LlmView, registry: &Registry, observed: &ObservedView) -> Comparison {
    let empty = Value::Array(Vec::new());
    let payload = if view.export.payload.is_array() {
        &view.export.payload
    } else {
        &empty
    };
    let sent: BTreeSet<&str> = payload
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.pointer("/function/name").and_then(Value::as_str))
        .collect();
    // A paired node's tools are in no run of the lab (its private gateway has no nodes).
    let lab_lacks: BTreeSet<String> = match observed.surface {
        Surface::GatewayEffective => BTreeSet::new(),
        _ => view
            .resolution
            .visible()
            .filter(|t| {
                registry
                    .get(&t.name)
                    .is_some_and(|s| s.source.node().is_some())
            })
            .map(|t| t.name.clone())
            .collect(),
    };
    let searchable_only = view
        .resolution
        .visible()
        .filter(|t| !sent.contains(t.name.as_str()) && !lab_lacks.contains(&t.name))
        .filter(|t| registry.get(&t.name).is_some_and(|s| s.source.is_mcp()))
        .map(|t| t.name.clone())
        .collect();
    // Code Mode's exec and wait are in the payload when clawdeck's run engages it.
    let code_mode_controls = match &registry.semantics.code_mode {
        Some(rules)
            if view
                .resolution
                .resolved
                .code_mode
                .as_ref()
                .is_some_and(|c| c.engaged) =>
        {
            rules.controls.keys().cloned().collect()
        }
        _ => BTreeSet::new(),
    };
    compare(
        &Prediction {
            resolution: &view.resolution,
            payload,
            own_tools: own_tools(registry),
            lab_lacks,
            searchable_only,
            schema_unknown: registry
                .names()
                .filter_map(|name| registry.get(name))
                .filter(|spec| spec.flags.schema_unknown)
                .map(|spec| spec.name.clone())
                .collect(),
            gateway_effective: Some(&registry.semantics.gateway_effective),
            not_built: registry
                .semantics
                .conditional_tools
                .iter()
                .filter(|(name, _)| registry.get(name).is_none())
                .filter_map(|(name, _)| Some((name.clone(), registry.semantics.what_brings(name)?)))
                .collect(),
            code_mode_controls,
        },
        observed,
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use serde_json::json;

    #[test]
    fn verdicts_carry_clawdecks_deciding_rule() {
        let loaded =
            crate::config::load_from_str(r#"{ tools: { deny: ["exec"] } }"#, "verify-test.json5")
                .unwrap();
        let registry = Registry::build(&loaded, &crate::mcp_servers::ServerListing::Off);
        let view = predict(&loaded, &registry, &PolicyContext::default()).unwrap();
        let read = view
            .export
            .payload
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["function"]["name"] == "read")
            .expect("clawdeck offers read")["function"]
            .clone();
        let mut real_read = read.clone();
        real_read["parameters"]["properties"]["brandNew"] = json!({"type": "string"});
        let body = json!({
            "messages": [{"role": "system", "content": "sys"}],
            "tools": [
                {"type": "function", "function": real_read},
                {"type": "function", "function": {"name": "exec", "parameters": {}}},
                {"type": "function", "function": {"name": "brand_new_tool", "parameters": {}}},
                {"type": "function", "function": {"name": "music_generate", "parameters": {}}},
            ],
        });
        let observed = ObservedView::from_request(&body);
        let comparison = compare_view(&view, &registry, &observed);
        let verdict = |name: &str| {
            comparison
                .verdicts
                .iter()
                .find(|v| v.tool == name)
                .unwrap_or_else(|| panic!("no verdict for {name}"))
        };

        let read = verdict("read");
        assert_eq!(read.agreement, Agreement::Agree);
        assert_eq!(read.schema.len(), 1);
        assert_eq!(read.schema[0].pointer, "/parameters/properties/brandNew");
        assert!(
            read.clawdeck_rule
                .as_deref()
                .unwrap()
                .starts_with("visible")
        );

        let exec = verdict("exec");
        assert_eq!(exec.agreement, Agreement::OpenclawOnly);
        let rule = exec.clawdeck_rule.as_deref().unwrap();
        assert!(rule.starts_with("hidden at"), "{rule}");
        assert!(rule.contains("tools.deny"), "{rule}");

        let new = verdict("brand_new_tool");
        assert_eq!(new.agreement, Agreement::OpenclawOnly);
        assert_eq!(
            new.clawdeck_rule.as_deref(),
            Some("not in clawdeck's catalog")
        );
        // A tool the version has that this config does not bring says what would.
        let music = verdict("music_generate");
        assert_eq!(music.agreement, Agreement::OpenclawOnly);
        let rule = music.clawdeck_rule.as_deref().unwrap();
        assert!(
            rule.starts_with("not built for this config: OpenClaw builds it only with agents.defaults.mediaModels.music naming a model"),
            "{rule}"
        );

        // Everything else clawdeck shows is clawdeck-only, except its own tools.
        let own = own_tools(&registry);
        assert!(own.contains("clawbot_router"), "{own:?}");
        let leaked: Vec<&str> = comparison
            .verdicts
            .iter()
            .map(|v| v.tool.as_str())
            .filter(|t| own.contains(*t))
            .collect();
        assert!(leaked.is_empty(), "{leaked:?} {own:?}");
        assert!(
            comparison
                .notes
                .iter()
                .any(|n| n.starts_with("clawdeck's own tools are not compared"))
        );
        let clawdeck_only = comparison
            .verdicts
            .iter()
            .filter(|v| v.agreement == Agreement::ClawdeckOnly)
            .count();
        assert_eq!(comparison.policy_disagreements(), clawdeck_only + 3);
        assert_eq!(comparison.schema_differences(), 1);
        assert!(!comparison.is_clean());
    }

    #[test]
    fn a_refusal_one_side_alone_makes_is_a_policy_disagreement() {
        // An allowlist that names only a tool nobody has: clawdeck refuses the run.
        let (registry, refused) = prediction(r#"{ tools: { allow: ["no_such_tool"] } }"#);
        assert!(refused.resolution.refusal.is_some());
        let error = "No callable tools remain after resolving explicit tool allowlist (x)";
        let both = compare_view(&refused, &registry, &ObservedView::refused(error.into()));
        assert_eq!(both.refusal_disagreement, None);
        assert!(both.is_clean());
        let ran = ObservedView::from_request(&json!({"messages": [], "tools": []}));
        let only_ours = compare_view(&refused, &registry, &ran);
        assert!(
            only_ours
                .refusal_disagreement
                .as_deref()
                .is_some_and(|d| d.starts_with("clawdeck refuses the run")),
            "{:?}",
            only_ours.refusal_disagreement
        );
        assert_eq!(only_ours.policy_disagreements(), 1);
        let (registry, runs) = prediction(r#"{ tools: { allow: ["read"] } }"#);
        let only_theirs = compare_view(&runs, &registry, &ObservedView::refused(error.into()));
        assert_eq!(
            only_theirs.refusal_disagreement.as_deref(),
            Some("OpenClaw refused the run; clawdeck runs it")
        );
        assert!(!only_theirs.is_clean());
    }

    /// clawdeck's prediction for `config` under the 2026.9 pack.
    fn prediction(config: &str) -> (Registry, LlmView) {
        let loaded = crate::config::load_from_str(config, "code-mode.json5")
            .unwrap()
            .with_pack("2026.9")
            .unwrap();
        let registry = Registry::build(&loaded, &crate::mcp_servers::ServerListing::Off);
        let view = predict(&loaded, &registry, &PolicyContext::default()).unwrap();
        (registry, view)
    }

    /// The function objects clawdeck's request sends.
    fn sent_functions(view: &LlmView) -> Vec<Value> {
        let payload = view.export.payload.as_array().unwrap();
        payload.iter().map(|t| t["function"].clone()).collect()
    }

    /// A Code Mode request as OpenClaw sends it: `functions` with schemas, `exec`'s description
    /// ending in an index that lists `listed` and counts `omitted` more.
    fn code_mode_request(functions: &[Value], listed: &[String], omitted: usize) -> Value {
        let mut tools: Vec<Value> = Vec::new();
        for function in functions {
            let mut function = function.clone();
            if function["name"] == "exec" {
                let index: Vec<String> =
                    listed.iter().map(|n| format!("- {n} {{}} -> ?")).collect();
                function["description"] = json!(format!(
                    "Run JavaScript in OpenClaw code mode. ...\n\nEnabled async tool globals (descriptions are intentionally deferred):\nEach line is `callableName input -> output`.\n{}\n\n{omitted} additional tools omitted from this prompt index. Use catalog.search(query); results are callable.",
                    index.join("\n")
                ));
            }
            tools.push(json!({"type": "function", "function": function}));
        }
        json!({"messages": [{"role": "system", "content": "sys"}], "tools": tools})
    }

    #[test]
    fn a_code_mode_run_counts_the_tools_its_index_names_and_omits() {
        let (registry, view) = prediction(r#"{ tools: { profile: "coding", codeMode: true } }"#);
        let functions = sent_functions(&view);
        let sent: Vec<&str> = functions
            .iter()
            .filter_map(|f| f["name"].as_str())
            .collect();
        // Code Mode's controls and the direct-only tools are sent; read is called from code.
        assert!(sent.contains(&"exec") && sent.contains(&"wait"), "{sent:?}");
        assert!(!sent.contains(&"read"), "{sent:?}");
        let own = own_tools(&registry);
        let cataloged: Vec<String> = view
            .resolution
            .visible()
            .map(|t| t.name.clone())
            .filter(|n| !sent.contains(&n.as_str()) && !own.contains(n))
            .chain(std::iter::once("exec".to_string()))
            .collect();
        let (listed, rest) = cataloged.split_at(3);

        let observed =
            ObservedView::from_request(&code_mode_request(&functions, listed, rest.len()));
        let Surface::CodeMode {
            cataloged: seen,
            omitted,
            ..
        } = &observed.surface
        else {
            panic!("not read as Code Mode: {:?}", observed.surface);
        };
        assert_eq!((seen.as_slice(), *omitted), (listed, rest.len()));
        let comparison = compare_view(&view, &registry, &observed);
        assert!(
            comparison.is_clean(),
            "{:?}",
            comparison.disagreements().collect::<Vec<_>>()
        );
        assert!(
            comparison
                .verdicts
                .iter()
                .any(|v| v.tool == "read" && v.agreement == Agreement::Agree)
        );

        // One tool fewer in the count: the unlisted ones are then exposed by neither list.
        let short =
            ObservedView::from_request(&code_mode_request(&functions, listed, rest.len() - 1));
        let comparison = compare_view(&view, &registry, &short);
        assert_eq!(comparison.policy_disagreements(), rest.len());

        // exec's parameters are compared with the pack's.
        let mut changed = functions.clone();
        for f in changed.iter_mut().filter(|f| f["name"] == "exec") {
            f["parameters"]["properties"]["language"] = json!({"type": "string"});
        }
        let comparison = compare_view(
            &view,
            &registry,
            &ObservedView::from_request(&code_mode_request(&changed, listed, rest.len())),
        );
        assert!(
            comparison.notes.iter().any(|n| n
                == "Code Mode's exec: its parameters differ at /parameters/properties/language"),
            "{:?}",
            comparison.notes
        );

        // A run that sent every tool directly did not engage it; a gateway's list cannot say.
        let engaged_only_here = "clawdeck's run engages Code Mode and OpenClaw's did not";
        let direct = json!({"messages": [{"role": "system", "content": "sys"}],
            "tools": [{"type": "function", "function": {"name": "read", "parameters": {}}}]});
        let comparison = compare_view(&view, &registry, &ObservedView::from_request(&direct));
        assert!(
            comparison.notes.iter().any(|n| n == engaged_only_here),
            "{:?}",
            comparison.notes
        );
        let listed = ObservedView::from_tools_effective(
            &json!({"groups": [{"tools": [{"id": "read", "source": "core"}]}]}),
        )
        .unwrap();
        let comparison = compare_view(&view, &registry, &listed);
        assert!(
            !comparison.notes.iter().any(|n| n == engaged_only_here),
            "{:?}",
            comparison.notes
        );
    }

    #[test]
    fn a_code_mode_run_against_a_prediction_without_it_shows_where_each_tool_went() {
        let (registry, code_view) =
            prediction(r#"{ tools: { profile: "coding", codeMode: true } }"#);
        let functions = sent_functions(&code_view);
        let (_, plain) =
            prediction(r#"{ tools: { profile: "coding", codeMode: false, toolSearch: false } }"#);
        let listed: Vec<String> = plain
            .resolution
            .visible()
            .map(|t| t.name.clone())
            .filter(|n| {
                !own_tools(&registry).contains(n)
                    && !functions.iter().any(|f| f["name"] == n.as_str())
            })
            .chain(std::iter::once("exec".to_string()))
            .collect();
        let observed = ObservedView::from_request(&code_mode_request(&functions, &listed, 0));
        let comparison = compare_view(&plain, &registry, &observed);
        assert!(
            comparison
                .notes
                .iter()
                .any(|n| n == "OpenClaw's run engages Code Mode and clawdeck's does not"),
            "{:?}",
            comparison.notes
        );
        let read = comparison
            .verdicts
            .iter()
            .find(|v| v.tool == "read")
            .unwrap();
        assert_eq!(read.agreement, Agreement::Agree);
        assert_eq!(read.schema[0].clawdeck, Some(json!("sent with its schema")));
        assert_eq!(
            read.schema[0].openclaw,
            Some(json!("callable from Code Mode's exec"))
        );
    }
}
