//! The optional media tools (image, video and music generation, pdf, view_image). OpenClaw
//! builds one when the config names a model for it, or when a bundled provider plugin that
//! offers its capability has a credential (resolveOptionalMediaToolFactoryPlan and
//! resolveImageToolFactoryAvailable; both releases). `plugins.enabled: false` builds none.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::Semantics;
use crate::auth_profiles::ProfileStore;
use crate::dotenv::DotEnv;
use crate::tool::ToolSpec;

/// Where a run's credentials come from: the variables its environment gets (dotenv files, the
/// login shell) and the auth profiles it reads.
#[derive(Debug, Clone, Copy, Default)]
pub struct Credentials<'a> {
    pub dotenv: &'a [DotEnv],
    pub profiles: &'a [ProfileStore],
    /// The run's agent, whose own profile store it reads besides the shared one; `None`: any
    /// agent's run (what the registry holds).
    pub agent: Option<&'a str>,
}

/// Each media tool and the `agents.defaults` keys whose model brings it.
pub const MEDIA_MODEL_KEYS: &[(&str, &[&str])] = &[
    ("image_generate", &["mediaModels.image"]),
    ("video_generate", &["mediaModels.video"]),
    ("music_generate", &["mediaModels.music"]),
    ("pdf", &["pdfModel", "imageModel"]),
    ("view_image", &["imageModel"]),
];

/// A pack's `mediaCredentials` entry, read from the release's plugin manifests: the bundled
/// `plugin` brings `tool` when one of `env` is set (its capability's auth signals, as the
/// manifest's `setup.providers` names their variables).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct MediaCredential {
    pub plugin: String,
    pub tool: String,
    pub env: Vec<String>,
    /// The providers a stored auth profile of which is that credential too (the same auth
    /// signals; packs before this key: none).
    #[serde(default, rename = "profileProviders")]
    pub profile_providers: Vec<String>,
}

/// A pack's `providerCredentials` entry, read from the release's plugin manifests: the bundled
/// `plugin`'s setup names `env` as the credentials of model provider `provider`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ProviderCredential {
    pub plugin: String,
    pub provider: String,
    pub env: Vec<String>,
}

/// The media tools a configured model that takes images brings when its provider has a
/// credential (OpenClaw's hasConfiguredVisionModelAuthSignal; both releases).
const VISION_PROVIDER_TOOLS: &[&str] = &["pdf", "view_image"];

/// Why a config's run has a media tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MediaSource {
    /// `agents.defaults.<key>` names a model.
    Model { key: String },
    /// A credential of a bundled provider plugin is set: `written` says where
    /// (`env.vars.FAL_KEY`, `FAL_KEY in /home/u/.openclaw/.env`).
    Credential { written: String, plugin: String },
    /// `models.providers.<provider>` has a model that takes images, and that provider's
    /// credential is set (`written`): a variable a bundled plugin's setup names, or a stored
    /// auth profile (then no plugin).
    VisionProvider {
        provider: String,
        written: String,
        plugin: Option<String>,
    },
}

impl MediaSource {
    /// The source in words: `agents.defaults.pdfModel names a model`.
    pub fn describe(&self) -> String {
        match self {
            MediaSource::Model { key } => format!("agents.defaults.{key} names a model"),
            MediaSource::Credential { written, plugin } => {
                format!("{written} is a credential of the bundled plugin \"{plugin}\"")
            }
            MediaSource::VisionProvider {
                provider,
                written,
                plugin,
            } => {
                let plugin = plugin
                    .as_ref()
                    .map(|plugin| format!(" (bundled plugin \"{plugin}\")"))
                    .unwrap_or_default();
                format!(
                    "models.providers.{provider} has a model that takes images and {written} is \
                     that provider's credential{plugin}"
                )
            }
        }
    }
}

fn media_model_keys(tool: &str) -> Option<&'static [&'static str]> {
    MEDIA_MODEL_KEYS
        .iter()
        .find(|(t, _)| *t == tool)
        .map(|(_, keys)| *keys)
}

/// A model setting that names a model: a model reference ([`crate::model_ref::model_ref`]) or a
/// non-empty `fallbacks` entry (OpenClaw's hasToolModelConfig counts either).
fn names_a_model(value: &Value) -> bool {
    !crate::model_ref::setting_refs(value).is_empty()
}

/// The variables the run's environment gets with a value other than blanks, each with where it
/// is written: the config's `env.vars` (OpenClaw puts them into its environment), then the
/// dotenv files and the login shell (`env.shellEnv`). An empty one is no credential.
pub(crate) fn set_credentials(raw: &Value, dotenv: &[DotEnv]) -> BTreeMap<String, String> {
    let mut set: BTreeMap<String, String> = raw
        .pointer("/env/vars")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, value)| value.as_str().is_some_and(|v| !v.trim().is_empty()))
        .map(|(name, _)| (name.clone(), format!("env.vars.{name}")))
        .collect();
    for (file, name) in dotenv
        .iter()
        .flat_map(|d| d.set.iter().map(move |n| (d, n)))
    {
        set.entry(name.clone()).or_insert_with(|| match file.place {
            crate::dotenv::DotEnvPlace::LoginShell => format!(
                "{name} from the login shell ({} -l, env.shellEnv)",
                file.path.display()
            ),
            _ => format!("{name} in {}", file.path.display()),
        });
    }
    set
}

impl Semantics {
    /// What brings media tool `name` into `raw`'s run (its state dir's `.env` beside), the
    /// first source found; `None` when nothing does (or `name` is no media tool).
    pub fn media_source(
        &self,
        raw: &Value,
        creds: &Credentials<'_>,
        name: &str,
    ) -> Option<MediaSource> {
        if raw.pointer("/plugins/enabled") == Some(&Value::Bool(false)) {
            return None;
        }
        let model_key = media_model_keys(name)?.iter().find(|key| {
            let pointer = format!("/agents/defaults/{}", key.replace('.', "/"));
            raw.pointer(&pointer).is_some_and(names_a_model)
        });
        if let Some(key) = model_key {
            return Some(MediaSource::Model {
                key: key.to_string(),
            });
        }
        // Where the first of a loading plugin's variables that the run's environment gets
        // is written.
        let set = set_credentials(raw, creds.dotenv);
        let set_credential =
            |plugin: &str, env: &[String]| self.set_credential(raw, &set, plugin, env);
        // A stored profile of one of the capability's providers counts as its variables do,
        // while the plugin loads (hasConfiguredCapabilityProviderSignal).
        let stored = |plugin: &str, providers: &[String]| {
            self.plugin_loads(raw, plugin)
                .then(|| self.stored_profile(creds, providers))
                .flatten()
        };
        let credential = self
            .media_credentials
            .iter()
            .filter(|credential| credential.tool == name)
            .find_map(|credential| {
                let written = set_credential(&credential.plugin, &credential.env)
                    .or_else(|| stored(&credential.plugin, &credential.profile_providers))?;
                Some(MediaSource::Credential {
                    written,
                    plugin: credential.plugin.clone(),
                })
            });
        if credential.is_some() || !VISION_PROVIDER_TOOLS.contains(&name) {
            return credential;
        }
        // A configured model that takes images, whose provider (the key as written) has a
        // credential a loading plugin's setup names.
        let providers = super::vision::vision_providers(raw);
        let by_variable = self
            .provider_credentials
            .iter()
            .filter(|credential| providers.contains(&credential.provider.as_str()))
            .find_map(|credential| {
                Some(MediaSource::VisionProvider {
                    written: set_credential(&credential.plugin, &credential.env)?,
                    provider: credential.provider.clone(),
                    plugin: Some(credential.plugin.clone()),
                })
            });
        // Or any stored profile of that provider, whatever plugin serves it
        // (hasConfiguredVisionModelAuthSignal).
        by_variable.or_else(|| {
            providers.iter().find_map(|provider| {
                Some(MediaSource::VisionProvider {
                    written: self.stored_profile(creds, &[provider.to_string()])?,
                    provider: provider.to_string(),
                    plugin: None,
                })
            })
        })
    }

    /// The first stored auth profile the run reads for one of `providers`, in words.
    pub(super) fn stored_profile(
        &self,
        creds: &Credentials<'_>,
        providers: &[String],
    ) -> Option<String> {
        crate::auth_profiles::profile_for(
            creds.profiles,
            creds.agent,
            providers,
            &self.provider_auth_aliases,
        )
    }

    /// Whether bundled plugin `plugin` loads in `raw`'s run.
    pub(super) fn plugin_loads(&self, raw: &Value, plugin: &str) -> bool {
        self.switches
            .plugins
            .as_ref()
            .is_none_or(|switches| switches.plugin_off(raw, plugin).is_none())
    }

    /// Every variable a credential of the pack names (the media plugins' and the vision
    /// providers' keys).
    pub fn credential_variables(&self) -> std::collections::BTreeSet<&str> {
        self.media_credentials
            .iter()
            .flat_map(|c| &c.env)
            .chain(self.provider_credentials.iter().flat_map(|c| &c.env))
            .map(String::as_str)
            .collect()
    }

    /// Where the first of `env` that the run's environment gets (`set`: [`set_credentials`])
    /// is written, when `plugin` loads.
    pub(super) fn set_credential(
        &self,
        raw: &Value,
        set: &BTreeMap<String, String>,
        plugin: &str,
        env: &[String],
    ) -> Option<String> {
        let written = env.iter().find_map(|v| set.get(v))?;
        self.plugin_loads(raw, plugin).then(|| written.clone())
    }

    /// The media tools `raw`'s run has (see [`Semantics::media_source`]), of those whose
    /// schema the pack holds; one a key brings is worded as OpenClaw words it then.
    pub fn media_tools_turned_on(&self, raw: &Value, creds: &Credentials<'_>) -> Vec<ToolSpec> {
        self.conditional_specs
            .iter()
            .filter_map(|spec| {
                let source = self.media_source(raw, creds, &spec.name)?;
                let mut spec = spec.clone();
                let worded = self.media_credential_descriptions.get(&spec.name);
                let by_key = !matches!(source, MediaSource::Model { .. });
                if let (true, Some(text)) = (by_key, worded) {
                    spec.description = text.clone();
                }
                if let Some(audio) = self.video_audio_references(raw, creds, &spec.name) {
                    spec.description = audio.description.clone();
                    spec.parameters = audio.parameters.clone();
                }
                Some(spec)
            })
            .collect()
    }

    /// The names `field` gives for media tool `name` over its credentials, sorted, each once.
    fn credential_names(
        &self,
        name: &str,
        field: impl Fn(&MediaCredential) -> &Vec<String>,
    ) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .media_credentials
            .iter()
            .filter(|credential| credential.tool == name)
            .flat_map(|credential| field(credential).iter().map(String::as_str))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// What brings a tool this config's run lacks, in words: the model keys of a media tool
    /// and the credentials that would, else the pack's condition. `None` for a tool the
    /// version does not have.
    pub fn what_brings(&self, name: &str) -> Option<String> {
        let condition = self.conditional(name)?;
        if let Some(brings) = self.client_capabilities.what_brings(name) {
            let pinned = self
                .scheduled_turn
                .as_ref()
                .and_then(|rules| rules.pinned_widget.as_ref())
                .filter(|widget| widget.tool == name);
            return Some(match pinned {
                Some(_) => format!(
                    "{brings}, or a scheduled job's turn whose cap names it outside the job's own session (pinned widgets only: --scheduled-tools {name} --session-key KEY)"
                ),
                None => brings,
            });
        }
        if let Some(brings) = self.host_tool_brought_by(name) {
            return Some(brings);
        }
        if let Some(rules) = self.heartbeat_turn.as_ref().filter(|r| r.tool == name) {
            return Some(rules.brought_by());
        }
        let vision = ", or a run on a model that takes images (clawdeck reads that from the \
                      model's models.providers entry, its provider's catalog and the anthropic \
                      plugin's newer-Claude rule)";
        let vision = if self.needs_vision(name) { vision } else { "" };
        let Some(keys) = media_model_keys(name) else {
            return Some(format!("{condition}{vision}"));
        };
        let keys: Vec<String> = keys
            .iter()
            .map(|k| format!("agents.defaults.{k}"))
            .collect();
        let mut brings = format!("{} naming a model", keys.join(" or "));
        let variables = self.credential_names(name, |credential| &credential.env);
        if !variables.is_empty() {
            brings.push_str(&format!(
                ", or a provider credential in env.vars, the .env beside the config, ~/.config/openclaw/gateway.env or the login shell (env.shellEnv) ({})",
                variables.join(", ")
            ));
        }
        let providers = self.credential_names(name, |credential| &credential.profile_providers);
        if !providers.is_empty() {
            brings.push_str(&format!(
                ", or a stored auth profile the run's agent reads of {}",
                providers.join(", ")
            ));
        }
        if VISION_PROVIDER_TOOLS.contains(&name) {
            brings.push_str(
                ", or a models.providers model that takes images whose provider has a \
                 credential in env.vars or the .env, or a stored auth profile",
            );
        }
        brings.push_str(vision);
        Some(brings)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn brought(semantics: &Semantics, raw: &Value) -> Vec<String> {
        let mut names: Vec<String> = semantics
            .media_tools_turned_on(raw, &Credentials::default())
            .into_iter()
            .map(|spec| spec.name.clone())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_provider_key_in_env_vars_brings_what_its_plugin_offers_on_both_releases() {
        for release in ["2026.9", "2026.8"] {
            let semantics = super::super::embedded(release).unwrap();
            let raw = json!({ "env": { "vars": { "OPENAI_API_KEY": "sk-x" } } });
            assert_eq!(
                brought(&semantics, &raw),
                ["image_generate", "pdf", "video_generate", "view_image"],
                "{release}"
            );
            assert_eq!(
                semantics.media_source(&raw, &Credentials::default(), "pdf"),
                Some(MediaSource::Credential {
                    written: "env.vars.OPENAI_API_KEY".into(),
                    plugin: "openai".into()
                })
            );
            let fal = json!({ "env": { "vars": { "FAL_KEY": "k" } } });
            assert_eq!(
                brought(&semantics, &fal),
                ["image_generate", "music_generate", "video_generate"],
                "{release}"
            );
        }
    }

    #[test]
    fn a_key_counts_only_while_its_plugin_loads_and_only_when_not_blank() {
        let semantics = super::super::embedded("2026.9").unwrap();
        let keys = json!({ "OPENAI_API_KEY": "sk", "FAL_KEY": "f", "DEEPGRAM_API_KEY": "d" });
        let unloaded = json!({ "env": { "vars": keys },
            "plugins": { "entries": { "openai": { "enabled": false } }, "deny": ["fal"] } });
        assert_eq!(brought(&semantics, &unloaded), ["pdf", "view_image"]);
        let all_off = json!({ "env": { "vars": keys }, "plugins": { "enabled": false } });
        assert!(brought(&semantics, &all_off).is_empty());
        let not_allowed =
            json!({ "env": { "vars": keys }, "plugins": { "allow": ["memory-core"] } });
        assert!(brought(&semantics, &not_allowed).is_empty());
        let blank = json!({ "env": { "vars": { "OPENAI_API_KEY": "  ", "FAL_KEY": 3 } } });
        assert!(brought(&semantics, &blank).is_empty());
    }

    #[test]
    fn a_named_model_comes_first_and_the_image_model_brings_view_image() {
        let semantics = super::super::embedded("2026.9").unwrap();
        let raw = json!({ "agents": { "defaults": { "imageModel": { "primary": "openai/gpt-4o" } } },
            "env": { "vars": { "OPENAI_API_KEY": "sk" } } });
        assert_eq!(
            semantics.media_source(&raw, &Credentials::default(), "view_image"),
            Some(MediaSource::Model {
                key: "imageModel".into()
            })
        );
        assert_eq!(
            semantics
                .media_source(&raw, &Credentials::default(), "view_image")
                .map(|s| s.describe()),
            Some("agents.defaults.imageModel names a model".into())
        );
        let model_only = json!({ "agents": { "defaults": { "imageModel": "openai/gpt-4o" } } });
        assert_eq!(brought(&semantics, &model_only), ["pdf", "view_image"]);
        // view_image words its model by what brought it (both forms captured from real runs).
        let described = |raw: &Value| {
            let tools = semantics.media_tools_turned_on(raw, &Credentials::default());
            let view = tools.iter().find(|t| t.name == "view_image").unwrap();
            view.description.clone()
        };
        assert!(described(&model_only).contains("with the configured model"));
        let key_only = json!({ "env": { "vars": { "OPENAI_API_KEY": "sk" } } });
        assert!(described(&key_only).contains("with available vision"));
    }

    #[test]
    fn what_brings_a_media_tool_names_the_model_keys_and_the_keys_that_would() {
        let semantics = super::super::embedded("2026.9").unwrap();
        let brings = semantics.what_brings("music_generate").unwrap();
        assert!(
            brings.starts_with("agents.defaults.mediaModels.music naming a model, or a provider credential in env.vars, the .env beside the config, ~/.config/openclaw/gateway.env or the login shell (env.shellEnv) ("),
            "{brings}"
        );
        assert!(brings.contains("FAL_KEY"), "{brings}");
        assert!(!brings.contains("OPENAI_API_KEY"), "{brings}");
        assert_eq!(semantics.what_brings("no_such_tool"), None);
    }

    #[test]
    fn a_configured_model_that_takes_images_and_its_providers_key_bring_pdf_and_view_image() {
        let eye = json!([{ "id": "eye", "input": ["text", "image"] }]);
        let text = json!([{ "id": "plain", "input": ["text"] }]);
        for release in ["2026.9", "2026.8"] {
            let semantics = super::super::embedded(release).unwrap();
            let config = |providers: Value, key: &str| json!({ "env": { "vars": { key: "k" } }, "models": { "providers": providers } });
            // Together's key brings video_generate itself (a generation provider).
            let seen = |raw: &Value| {
                let mut names = brought(&semantics, raw);
                names.retain(|n| n == "pdf" || n == "view_image");
                names
            };
            let raw = config(json!({ "together": { "models": eye } }), "TOGETHER_API_KEY");
            assert_eq!(seen(&raw), ["pdf", "view_image"], "{release}");
            assert_eq!(
                semantics.media_source(&raw, &Credentials::default(), "pdf"),
                Some(MediaSource::VisionProvider {
                    provider: "together".into(),
                    written: "env.vars.TOGETHER_API_KEY".into(),
                    plugin: Some("together".into()),
                })
            );
            let view = semantics.media_tools_turned_on(&raw, &Credentials::default());
            let view = view.iter().find(|t| t.name == "view_image").unwrap();
            assert!(view.description.contains("with available vision"));
            // The key of a provider whose models take text only, a model that takes images
            // whose provider has no key, a plugin that does not load: nothing.
            let nothing = [
                config(
                    json!({ "together": { "models": text } }),
                    "TOGETHER_API_KEY",
                ),
                config(json!({ "vis": { "models": eye } }), "TOGETHER_API_KEY"),
                config(json!({ "Together": { "models": eye } }), "TOGETHER_API_KEY"),
                json!({ "env": { "vars": { "TOGETHER_API_KEY": "k" } },
                        "plugins": { "deny": ["together"] },
                        "models": { "providers": { "together": { "models": eye } } } }),
            ];
            for raw in nothing {
                assert!(seen(&raw).is_empty(), "{release}: {raw}");
            }
        }
    }
}
