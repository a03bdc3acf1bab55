//! video_generate's audio references. OpenClaw adds `audioRef`, `audioRefs` and `audioRoles`
//! (and says so in the description) when a video provider that takes reference audio is
//! configured (a key its plugin names, or `models.providers.<id>.apiKey`), or when
//! `agents.defaults.mediaModels.video` names such a provider or one the manifests do not know
//! (shouldExposeVideoReferenceAudioParams; both releases). The pack's `videoAudioReferences`
//! holds the providers, read from the release's manifests, and the schema a FAL key gives.

use serde::Deserialize;
use serde_json::Value;

use super::Semantics;
use super::media::set_credentials;

/// A pack's `videoAudioReferences`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoAudioReferences {
    /// Every video generation provider id and alias the manifests name.
    pub known_providers: Vec<String>,
    /// Those that take reference audio.
    pub audio_providers: Vec<String>,
    pub description: String,
    pub parameters: Value,
}

/// The providers `agents.defaults.mediaModels.video` names (`provider/model`, its primary and
/// fallbacks), lower case.
fn video_model_providers(raw: &Value) -> Vec<String> {
    let Some(setting) = raw.pointer("/agents/defaults/mediaModels/video") else {
        return Vec::new();
    };
    crate::model_ref::setting_refs(setting)
        .into_iter()
        .filter_map(|model| model.split_once('/'))
        .map(|(provider, _)| provider.trim().to_lowercase())
        .filter(|provider| !provider.is_empty())
        .collect()
}

impl Semantics {
    /// video_generate's form with audio references, when `raw`'s run sends that form.
    pub(super) fn video_audio_references(
        &self,
        raw: &Value,
        creds: &super::Credentials<'_>,
        name: &str,
    ) -> Option<&VideoAudioReferences> {
        let rules = self
            .video_audio
            .as_ref()
            .filter(|_| name == "video_generate")?;
        let takes_audio = |id: &str| rules.audio_providers.iter().any(|p| p == id);
        let named = video_model_providers(raw)
            .into_iter()
            .any(|provider| takes_audio(&provider) || !rules.known_providers.contains(&provider));
        if named {
            return Some(rules);
        }
        let api_key = |id: &str| {
            raw.pointer(&format!("/models/providers/{id}/apiKey"))
                .is_some_and(|key| key.as_str().is_none_or(|k| !k.trim().is_empty()))
        };
        let set = set_credentials(raw, creds.dotenv);
        let keyed = self
            .provider_credentials
            .iter()
            .filter(|credential| takes_audio(&credential.provider))
            .any(|credential| {
                self.set_credential(raw, &set, &credential.plugin, &credential.env)
                    .is_some()
            });
        // A stored auth profile of such a provider is its credential too.
        let stored = self.stored_profile(creds, &rules.audio_providers).is_some();
        (keyed || stored || rules.audio_providers.iter().any(|id| api_key(id))).then_some(rules)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn audio(semantics: &Semantics, raw: &Value) -> bool {
        let tools = semantics.media_tools_turned_on(raw, &Default::default());
        let video = tools.iter().find(|t| t.name == "video_generate").unwrap();
        video.parameters["properties"].get("audioRefs").is_some()
    }

    #[test]
    fn a_video_provider_that_takes_audio_adds_the_audio_references_on_both_releases() {
        for release in ["2026.9", "2026.8"] {
            let semantics = super::super::embedded(release).unwrap();
            let fal = json!({ "env": { "vars": { "FAL_KEY": "k" } } });
            assert!(audio(&semantics, &fal), "{release}");
            let openai = json!({ "env": { "vars": { "OPENAI_API_KEY": "k" } } });
            assert!(!audio(&semantics, &openai), "{release}");
            let veo =
                json!({ "agents": { "defaults": { "mediaModels": { "video": "google/veo-3" } } } });
            assert!(!audio(&semantics, &veo), "{release}");
            let fal_model = json!({ "agents": { "defaults": { "mediaModels": {
                "video": { "primary": "google/veo-3", "fallbacks": ["fal/kling"] } } } } });
            assert!(audio(&semantics, &fal_model), "{release}");
            // A provider the manifests do not know might take audio: OpenClaw offers it.
            let unknown =
                json!({ "agents": { "defaults": { "mediaModels": { "video": "acme/v1" } } } });
            assert!(audio(&semantics, &unknown), "{release}");
            let api_key = json!({ "env": { "vars": { "OPENAI_API_KEY": "k" } },
                                  "models": { "providers": { "fal": { "apiKey": "k" } } } });
            assert!(audio(&semantics, &api_key), "{release}");
            let denied = json!({ "env": { "vars": { "FAL_KEY": "k", "OPENAI_API_KEY": "k" } },
                                 "plugins": { "deny": ["fal"] } });
            assert!(!audio(&semantics, &denied), "{release}");
        }
    }
}
