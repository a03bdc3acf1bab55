//! The tools a model that takes images brings (view_image, computer). OpenClaw asks whether the
//! run's model takes images (modelHasVision: the resolved model's `input` includes `"image"`)
//! and, when it does, builds view_image without an image model or a key and builds computer;
//! both are then sent directly under Tool Search, view_image worded for such a model (both
//! releases). clawdeck knows what a model takes only where the config declares it: the
//! `models.providers.<provider>.models[]` entry's `input`. A built-in model's own catalog entry
//! is OpenClaw's to read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Semantics;
use crate::tool::ToolSpec;

/// How a tool is sent when the run's model takes images (the pack's `visionModelTools`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct VisionTool {
    pub description: String,
    pub parameters: Value,
}

/// What the run's model takes, as the config declares it or its provider's catalog lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelInput {
    /// Its `input` includes `"image"`.
    pub takes_images: bool,
    /// Where that is written: `models.providers.vis.models[0].input`, or `the openai
    /// provider's catalog`.
    pub path: String,
    /// It comes from OpenClaw (a provider's catalog or plugin), not from the config.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_catalog: bool,
}

impl ModelInput {
    /// In words: `the run's model vis/eye-1 takes images (models.providers...input)`.
    pub fn describe(&self, model: &str) -> String {
        let takes = if self.takes_images {
            "takes images"
        } else {
            "does not take images"
        };
        format!("the run's model {model} {takes} ({})", self.path)
    }
}

/// One model the config declares under `models.providers`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeclaredModel<'a> {
    /// The provider's key, as written.
    pub provider: &'a str,
    /// Its place in the provider's `models`.
    pub index: usize,
    pub id: &'a str,
    /// Its `input`, when a list.
    pub input: Option<&'a [Value]>,
    /// The whole entry.
    pub entry: &'a Value,
}

impl DeclaredModel<'_> {
    fn takes_images(&self) -> bool {
        self.input
            .is_some_and(|input| input.iter().any(|i| i.as_str() == Some("image")))
    }

    /// What the entry declares it takes; `None` when it declares no `input` list.
    fn declared_input(&self) -> Option<ModelInput> {
        self.input?;
        Some(ModelInput {
            takes_images: self.takes_images(),
            path: format!(
                "models.providers.{}.models[{}].input",
                self.provider, self.index
            ),
            from_catalog: false,
        })
    }
}

/// Every model the config's `models.providers` declares (one with a string `id`), in order.
pub fn declared_models(raw: &Value) -> Vec<DeclaredModel<'_>> {
    let providers = raw.pointer("/models/providers").and_then(Value::as_object);
    let mut out = Vec::new();
    for (provider, entry) in providers.into_iter().flatten() {
        let models = entry.get("models").and_then(Value::as_array);
        for (index, model) in models.into_iter().flatten().enumerate() {
            let Some(id) = model.get("id").and_then(Value::as_str) else {
                continue;
            };
            out.push(DeclaredModel {
                provider,
                index,
                id,
                input: model
                    .get("input")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice),
                entry: model,
            });
        }
    }
    out
}

/// The first model of `models` that is `provider`'s `model` (ids compared without case, as
/// OpenClaw's findConfiguredProviderModel does; `model` may carry its `provider/` prefix).
pub fn find_declared<'a>(
    models: &[DeclaredModel<'a>],
    provider: &str,
    model: &str,
) -> Option<DeclaredModel<'a>> {
    let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    let model = crate::model_ref::model_id(provider, model);
    models
        .iter()
        .find(|m| same(m.provider, provider) && same(m.id, model))
        .copied()
}

/// The `provider/model` references the config's agents name (each model setting's primary and
/// fallbacks).
fn configured_model_refs(raw: &Value) -> Vec<&str> {
    let agents = raw.get("agents");
    let list = agents
        .and_then(|a| a.get("list"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let entries = agents
        .and_then(|a| a.get("entries"))
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|entries| entries.values());
    let settings = list.chain(entries).filter_map(|entry| entry.get("model"));
    agents
        .and_then(|a| a.pointer("/defaults/model"))
        .into_iter()
        .chain(settings)
        .flat_map(crate::model_ref::setting_refs)
        .collect()
}

/// What the config's `models.providers` entry for `provider`/`model` declares it takes (see
/// [`find_declared`]). `None` when the config declares no `input` list for it.
pub fn declared_input(raw: &Value, provider: &str, model: &str) -> Option<ModelInput> {
    find_declared(&declared_models(raw), provider, model)?.declared_input()
}

/// The entry of `catalog` (provider id → model id → what the catalog says) for `provider`'s
/// `model`, with the provider id as the catalog writes it; ids compared without case.
pub(super) fn catalog_entry<'a, T>(
    catalog: &'a BTreeMap<String, BTreeMap<String, T>>,
    provider: &str,
    model: &str,
) -> Option<(&'a str, &'a T)> {
    let same = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    let id = crate::model_ref::model_id(provider, model);
    let (written, models) = catalog.iter().find(|(p, _)| same(p, provider))?;
    let (_, entry) = models.iter().find(|(m, _)| same(m, id))?;
    Some((written.as_str(), entry))
}

/// The `models.providers` ids (as written) with a model whose `input` includes `"image"`.
pub(super) fn vision_providers(raw: &Value) -> Vec<&str> {
    let mut providers: Vec<&str> = declared_models(raw)
        .into_iter()
        .filter(DeclaredModel::takes_images)
        .map(|m| m.provider)
        .collect();
    providers.dedup();
    providers
}

impl Semantics {
    /// What `provider`/`model` takes: the config's entry for it when that declares `input`,
    /// else its provider's catalog (ids compared without case, the catalog's by the id the
    /// reference normalizes to); then the anthropic plugin's rule may add images for a newer
    /// Claude model. `None` when nothing says.
    pub fn model_input(&self, raw: &Value, provider: &str, model: &str) -> Option<ModelInput> {
        let id = self.model_rules.normalize_id(provider, model);
        let declared = declared_models(raw);
        let as_written = find_declared(&declared, provider, model);
        let as_normalized = find_declared(&declared, provider, &id);
        let found = as_written
            .and_then(|e| e.declared_input())
            .or_else(|| as_normalized.and_then(|e| e.declared_input()))
            .or_else(|| self.catalog_input(provider, &id))
            .or_else(|| self.catalog_input(provider, model));
        let name = as_written
            .or(as_normalized)
            .and_then(|e| e.entry.get("name"))
            .and_then(Value::as_str);
        if found.as_ref().is_some_and(|f| f.takes_images) {
            return found;
        }
        let Some(rule) = self.newer_claude(provider, &id, name) else {
            return found;
        };
        Some(ModelInput {
            takes_images: true,
            path: match found {
                Some(found) => format!("{rule}, whatever {} says", found.path),
                None => rule,
            },
            from_catalog: true,
        })
    }

    fn catalog_input(&self, provider: &str, model: &str) -> Option<ModelInput> {
        let (catalog, taken) = catalog_entry(&self.catalog_model_inputs, provider, model)?;
        Some(ModelInput {
            takes_images: taken.iter().any(|i| i == "image"),
            path: format!("the {catalog} provider's catalog"),
            from_catalog: true,
        })
    }

    /// The anthropic plugin's rule in words, when it takes `id` (or the entry's `name`) for a
    /// newer Claude model on one of its providers.
    fn newer_claude(&self, provider: &str, id: &str, name: Option<&str>) -> Option<String> {
        let rule = self.model_rules.claude_images.as_ref()?;
        if !rule.applies(provider) {
            return None;
        }
        if rule.is_modern(id) {
            return Some(format!(
                "the {provider} plugin takes {id} for a newer Claude model"
            ));
        }
        let name = name.filter(|n| rule.is_modern(n))?;
        Some(format!(
            "the {provider} plugin takes the name \"{name}\" for a newer Claude model"
        ))
    }

    /// Whether `name` is a tool a model that takes images brings.
    pub fn needs_vision(&self, name: &str) -> bool {
        self.vision_model_tools.contains_key(name)
    }

    /// Whether `raw` names a model that takes images: an agent's model or fallback, or a
    /// `models.providers` entry. Then a run whose model does not take images shows the tools
    /// such a model brings as switched off; otherwise a run has them only on such a model.
    pub fn names_vision_model(&self, raw: &Value) -> bool {
        !vision_providers(raw).is_empty()
            || configured_model_refs(raw).into_iter().any(|r| {
                r.split_once('/').is_some_and(|(provider, model)| {
                    self.model_input(raw, provider, model)
                        .is_some_and(|i| i.takes_images)
                })
            })
    }

    /// The tools a run on a model that takes images has, worded for it; those `already` names
    /// are left out (a media source brought them). Every registry holds them: whether a run's
    /// model takes images depends on its context (an agent's model, a `--model`), so each run
    /// keeps them only when its own model does (the policy's switches and
    /// [`crate::policy::resolve`]).
    pub fn vision_tools(&self, already: &[String]) -> Vec<ToolSpec> {
        self.conditional_specs
            .iter()
            .filter(|spec| !already.contains(&spec.name))
            .filter_map(|spec| {
                let variant = self.vision_model_tools.get(&spec.name)?;
                let mut spec = spec.clone();
                spec.description = variant.description.clone();
                spec.parameters = variant.parameters.clone();
                Some(spec)
            })
            .collect()
    }

    /// Sends `tools` as a run whose model takes images has them: the pack's wording of the
    /// tools such a model brings replaces any other.
    pub fn word_for_vision(&self, tools: &mut [ToolSpec]) {
        for tool in tools.iter_mut() {
            if let Some(variant) = self.vision_model_tools.get(&tool.name) {
                tool.description = variant.description.clone();
                tool.parameters = variant.parameters.clone();
            }
        }
    }

    /// Why a run's tool `name` is built, in words: the model's images for a tool that needs
    /// them, else what brings a media tool; `None` for a tool nothing in particular brings.
    pub fn built_because(
        &self,
        raw: &Value,
        creds: &super::Credentials<'_>,
        model: Option<(&str, &ModelInput)>,
        name: &str,
    ) -> Option<String> {
        if let Some((model, input)) = model.filter(|(_, i)| i.takes_images)
            && self.needs_vision(name)
        {
            return Some(input.describe(model));
        }
        self.media_source(raw, creds, name)
            .map(|source| source.describe())
            .or_else(|| self.xai_tool_brought_by(raw, creds, name))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_declared_input_is_found_without_case_and_with_its_path() {
        let raw = json!({"models": {"providers": {"Vis": {"models": [
            {"id": "text-1", "input": ["text"]},
            {"id": "Eye-1", "input": ["text", "image"]},
            {"id": "bare"},
        ]}}}});
        let eye = declared_input(&raw, "vis", "vis/eye-1").unwrap();
        assert!(eye.takes_images);
        assert_eq!(eye.path, "models.providers.Vis.models[1].input");
        assert!(!declared_input(&raw, "VIS", "text-1").unwrap().takes_images);
        assert_eq!(declared_input(&raw, "vis", "bare"), None);
        assert_eq!(declared_input(&raw, "other", "eye-1"), None);
        assert_eq!(declared_input(&json!({}), "vis", "eye-1"), None);
    }

    #[test]
    fn every_registry_holds_view_image_and_computer_worded_for_a_vision_model_on_both_releases() {
        for release in ["2026.9", "2026.8"] {
            let semantics = super::super::embedded(release).unwrap();
            let tools = semantics.vision_tools(&[]);
            let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
            names.sort_unstable();
            assert_eq!(names, ["computer", "view_image"], "{release}");
            let view_image = tools.iter().find(|t| t.name == "view_image").unwrap();
            assert!(view_image.description.starts_with("Load image(s)"));
            // A model that takes images inspects them itself: no `model` parameter.
            assert!(view_image.parameters["properties"].get("model").is_none());
            let already = vec!["view_image".to_string()];
            let rest = semantics.vision_tools(&already);
            assert!(rest.iter().all(|t| t.name != "view_image"));
        }
    }

    #[test]
    fn what_built_a_tool_names_the_models_input_before_a_media_source() {
        let semantics = super::super::embedded("2026.9").unwrap();
        let raw = json!({"agents": {"defaults": {"imageModel": "openai/gpt-4o"}}});
        let input = ModelInput {
            takes_images: true,
            path: "models.providers.v.models[0].input".into(),
            from_catalog: false,
        };
        assert_eq!(
            semantics
                .built_because(
                    &raw,
                    &Default::default(),
                    Some(("v/m", &input)),
                    "view_image"
                )
                .as_deref(),
            Some("the run's model v/m takes images (models.providers.v.models[0].input)")
        );
        let text = ModelInput {
            takes_images: false,
            ..input
        };
        assert_eq!(
            semantics
                .built_because(
                    &raw,
                    &Default::default(),
                    Some(("v/m", &text)),
                    "view_image"
                )
                .as_deref(),
            Some("agents.defaults.imageModel names a model")
        );
        assert_eq!(
            semantics.built_because(&raw, &Default::default(), None, "read"),
            None
        );
    }

    #[test]
    fn a_model_the_config_does_not_declare_takes_what_its_catalog_says() {
        let semantics = super::super::embedded("2026.9").unwrap();
        let input = semantics
            .model_input(&json!({}), "OpenAI", "gpt-5.5")
            .unwrap();
        assert!(input.takes_images && input.from_catalog);
        assert_eq!(
            input.describe("openai/gpt-5.5"),
            "the run's model openai/gpt-5.5 takes images (the openai provider's catalog)"
        );
        // A catalog model that takes text only, and one no catalog lists.
        assert!(
            !semantics
                .model_input(&json!({}), "nvidia", "z-ai/glm-5.2")
                .unwrap()
                .takes_images
        );
        assert_eq!(semantics.model_input(&json!({}), "openai", "gpt-4o"), None);
        // The config's entry wins when it declares input; one without input leaves it to the catalog.
        let declared = |input: Value| {
            json!({"models": {"providers": {"openai": {"models": [
            {"id": "gpt-5.5", "input": input}]}}}})
        };
        assert!(
            !semantics
                .model_input(&declared(json!(["text"])), "openai", "gpt-5.5")
                .unwrap()
                .takes_images
        );
        let bare = json!({"models": {"providers": {"openai": {"models": [{"id": "gpt-5.5"}]}}}});
        assert!(
            semantics
                .model_input(&bare, "openai", "gpt-5.5")
                .unwrap()
                .from_catalog
        );
    }

    #[test]
    fn the_anthropic_plugin_gives_a_newer_claude_model_images_on_its_own_provider() {
        let declared = |provider: &str, id: &str, name: &str| {
            json!({"models": {"providers": {provider: {"models": [
                {"id": id, "name": name, "input": ["text"]}]}}}})
        };
        for version in ["2026.8", "2026.9"] {
            let semantics = super::super::embedded(version).unwrap();
            let takes = |raw: &Value, provider: &str, model: &str| {
                semantics
                    .model_input(raw, provider, model)
                    .is_some_and(|i| i.takes_images)
            };
            let opus = declared("anthropic", "claude-opus-4-6", "claude-opus-4-6");
            let input = semantics
                .model_input(&opus, "anthropic", "anthropic/claude-opus-4-6")
                .unwrap();
            assert!(input.takes_images && input.from_catalog, "{version}");
            assert_eq!(
                input.path,
                "the anthropic plugin takes claude-opus-4-6 for a newer Claude model, whatever \
                 models.providers.anthropic.models[0].input says"
            );
            let named = declared("anthropic", "house", "Claude Sonnet 4.6");
            assert!(takes(&named, "anthropic", "house"), "{version}");
            let relay = declared("relay", "claude-opus-4-6", "claude-opus-4-6");
            assert!(!takes(&relay, "relay", "claude-opus-4-6"), "{version}");
            let older = declared("anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5");
            assert!(
                !takes(&older, "anthropic", "claude-sonnet-4-5"),
                "{version}"
            );
            // Undeclared and in no catalog: the plugin's rule alone says so.
            assert!(
                takes(&json!({}), "anthropic", "claude-sonnet-4-6"),
                "{version}"
            );
            assert_eq!(
                semantics.model_input(&json!({}), "anthropic", "claude-3-5-haiku"),
                None
            );
        }
    }

    #[test]
    fn a_catalog_row_is_read_by_the_id_the_reference_normalizes_to() {
        let newer = super::super::embedded("2026.9").unwrap();
        let input = newer
            .model_input(&json!({}), "anthropic", "anthropic/haiku")
            .unwrap();
        assert!(input.takes_images);
        assert_eq!(input.path, "the anthropic provider's catalog");
        // 2026.8's manifest has no "haiku" alias.
        let older = super::super::embedded("2026.8").unwrap();
        assert_eq!(older.model_input(&json!({}), "anthropic", "haiku"), None);
    }
}
