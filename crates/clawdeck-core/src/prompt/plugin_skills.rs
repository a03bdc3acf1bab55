//! The skills OpenClaw's enabled plugins bring. A bundled plugin whose manifest
//! (`openclaw.plugin.json`) lists `skills` folders contributes them when it loads: enabled by
//! default or by its `plugins.entries.<id>.enabled`, and not switched off by `plugins.*`
//! (`plugins.enabled`, `deny`, a disabled entry, the memory slot, `allow`), the rules the tool
//! policy already reads from the pack. OpenClaw reads them in the plugin and links them under
//! `<state>/plugin-skills`, where the model is told to find them; on a home where no gateway
//! has run yet that folder does not exist, which is why they are read here from the package.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::config::{LoadedConfig, PluginManifest};
use crate::semantics::switches::PluginSwitches;

/// Bundled plugins read at most (a package has some 60).
const MAX_PLUGINS: usize = 1_000;

/// The skill folders of the installed package's bundled plugins that load under `config`, in
/// plugin folder order.
pub(super) fn linked_roots(config: &LoadedConfig, package: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(package.join("dist").join("extensions")) else {
        return Vec::new();
    };
    let mut plugins: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .take(MAX_PLUGINS)
        .collect();
    plugins.sort();
    plugins
        .iter()
        .filter_map(|dir| Some((dir, manifest(dir)?)))
        .filter(|(_, manifest)| loads(config, manifest))
        .flat_map(|(dir, manifest)| skill_dirs(dir, &manifest))
        .collect()
}

/// A manifest that lists skills (one that does not parse brings none, as in OpenClaw).
fn manifest(dir: &Path) -> Option<PluginManifest> {
    let manifest = crate::config::plugin_manifest(dir)?.ok()?;
    let lists_skills = manifest.skills().is_some();
    lists_skills.then_some(manifest)
}

/// Whether the plugin loads: on by default or by its entry, and not switched off.
fn loads(config: &LoadedConfig, manifest: &PluginManifest) -> bool {
    let Some(id) = manifest.id() else {
        return false;
    };
    let on = manifest.enabled_by_default() || PluginSwitches::enabled_by_entry(&config.raw, id);
    let off = match &config.semantics.switches.plugins {
        Some(switches) => switches.plugin_off(&config.raw, id).is_some(),
        None => config.raw.pointer("/plugins/enabled") == Some(&Value::Bool(false)),
    };
    on && !off
}

/// The manifest's `skills` folders that exist inside the plugin's folder.
fn skill_dirs(plugin: &Path, manifest: &PluginManifest) -> Vec<PathBuf> {
    manifest
        .skills()
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|raw| !raw.is_empty())
        .map(|raw| crate::paths::normalize_lexically(&plugin.join(raw)))
        .filter(|dir| dir.starts_with(plugin) && dir.is_dir())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::PLUGIN_MANIFEST;

    fn plugin(root: &Path, id: &str, manifest: &str) {
        let dir = root.join("dist/extensions").join(id);
        std::fs::create_dir_all(dir.join("skills/one")).unwrap();
        std::fs::write(
            dir.join("skills/one/SKILL.md"),
            "---\ndescription: x\n---\n",
        )
        .unwrap();
        std::fs::write(dir.join(PLUGIN_MANIFEST), manifest).unwrap();
    }

    fn roots(config: &str, package: &Path) -> Vec<String> {
        let config = crate::config::load_from_str_with_pack(config, "test", "2026.9").unwrap();
        linked_roots(&config, package)
            .iter()
            .map(|dir| dir.strip_prefix(package).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn enabled_plugins_bring_their_skill_folders_and_switched_off_ones_do_not() {
        let package = tempfile::tempdir().unwrap();
        let root = package.path();
        plugin(
            root,
            "browser",
            r#"{"id":"browser","enabledByDefault":true,"skills":["./skills"]}"#,
        );
        plugin(
            root,
            "canvas",
            r#"{"id":"canvas","enabledByDefault":true,"skills":["./skills"]}"#,
        );
        plugin(root, "crabbox", r#"{"id":"crabbox","skills":["./skills"]}"#);
        plugin(
            root,
            "escape",
            r#"{"id":"escape","enabledByDefault":true,"skills":["../../x"]}"#,
        );
        plugin(root, "broken", "{ not json");
        let both = [
            "dist/extensions/browser/skills",
            "dist/extensions/canvas/skills",
        ];
        assert_eq!(roots("{}", root), both);
        assert_eq!(
            roots("{plugins: {entries: {crabbox: {enabled: true}}}}", root).len(),
            3
        );
        assert_eq!(roots("{plugins: {deny: ['canvas']}}", root), both[..1]);
        assert_eq!(
            roots("{plugins: {entries: {browser: {enabled: false}}}}", root),
            both[1..]
        );
        assert!(roots("{plugins: {enabled: false}}", root).is_empty());
        assert!(
            linked_roots(
                &crate::config::load_from_str("{}", "t").unwrap(),
                &root.join("nowhere")
            )
            .is_empty()
        );
    }
}
