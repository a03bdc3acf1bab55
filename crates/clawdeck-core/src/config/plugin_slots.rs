//! `plugins.slots.memory` names a plugin OpenClaw must find on its machine: one that is not
//! installed makes OpenClaw refuse the config ("plugin not found"), except `memory-lancedb`, the
//! official external plugin, which only warns; a retired plugin id warns too. Unlike the schema,
//! the answer depends on the machine, so it is asked only of a config read from this machine's
//! files, against the plugins of the OpenClaw install clawdeck would run (the one `openclaw`
//! resolves to): its bundled `dist/extensions`, the state directory's `extensions` and managed
//! npm installs, the workspace's `.openclaw/extensions`, and `plugins.load.paths`. Without that
//! install clawdeck says it could not check.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::keypath::KeyPath;
use super::schema_check::SchemaIssue;
use super::{ConfigError, LoadedConfig};

use crate::paths::PLUGIN_MANIFEST as MANIFEST;
/// Plugin ids OpenClaw retired: named anywhere in `plugins`, they only warn.
const RETIRED: [&str; 3] = [
    "google-antigravity-auth",
    "google-gemini-cli-auth",
    "skill-workshop",
];
/// The official external memory plugin: not installed, it warns with its install command.
const LANCEDB: &str = "memory-lancedb";
/// Plugin directories looked at per root at most (a root is a folder of plugins).
const PLUGINS_PER_ROOT: usize = 512;

/// What the memory slot says about this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SlotCheck {
    /// No explicit slot, `none`, or an installed plugin.
    Fine,
    /// OpenClaw would refuse the config.
    Refused(SchemaIssue),
    /// OpenClaw would accept it with this warning, or clawdeck could not check.
    Warning(String),
}

/// Notes the plugins this machine's OpenClaw would discover for a config read from its files
/// (`installed_plugins`), and refuses the config, or adds a warning, when its memory slot
/// names a plugin that OpenClaw does not have.
pub(crate) fn check_installed(loaded: &mut LoadedConfig) -> Result<(), ConfigError> {
    // What this machine has answers only for a config read from its files.
    let on_this_machine = matches!(
        loaded.source,
        super::ConfigSource::Flag | super::ConfigSource::Env | super::ConfigSource::Home
    );
    if on_this_machine {
        let state = crate::paths::openclaw_state_dir();
        loaded.installed_plugins = discoverable(loaded, state.as_deref()).map(std::sync::Arc::new);
    }
    if slot_plugin(&loaded.raw).is_none() {
        return Ok(());
    }
    let package = crate::paths::openclaw_package(&super::openclaw_bin(loaded));
    match memory_slot(loaded, package.as_deref()) {
        SlotCheck::Fine => Ok(()),
        SlotCheck::Warning(warning) => {
            loaded.warnings.push(warning);
            Ok(())
        }
        SlotCheck::Refused(issue) => super::schema_check::refuse(loaded, vec![issue], None),
    }
}

/// The plugins the OpenClaw install clawdeck would run discovers for `loaded` (its state in
/// `state`), when that install is the release `loaded`'s pack describes (a pack of another
/// release is a what-if the install does not answer); None without such an install.
pub(crate) fn discoverable(
    loaded: &LoadedConfig,
    state: Option<&Path>,
) -> Option<BTreeSet<String>> {
    let package = crate::paths::openclaw_package(&super::openclaw_bin(loaded))?;
    let series = package_series(&package)?;
    let pack = &loaded.semantics.id;
    let same_release = pack == &series || pack.starts_with(&format!("{series}."));
    same_release.then(|| installed_ids(loaded, &package, state))
}

/// The release series (`2026.9`) of the OpenClaw package at `package` (its `package.json`).
fn package_series(package: &Path) -> Option<String> {
    let text = std::fs::read_to_string(package.join("package.json")).ok()?;
    let manifest: Value = serde_json::from_str(&text).ok()?;
    let version = manifest.get("version")?.as_str()?;
    let mut parts = version.split('.');
    Some(format!("{}.{}", parts.next()?, parts.next()?))
}

/// The memory slot's plugin against the plugins installed for `loaded` (`openclaw_package`:
/// the OpenClaw package clawdeck would run, if found).
pub(crate) fn memory_slot(loaded: &LoadedConfig, openclaw_package: Option<&Path>) -> SlotCheck {
    let Some(id) = slot_plugin(&loaded.raw) else {
        return SlotCheck::Fine;
    };
    let at = "plugins.slots.memory";
    if let Some(retired) = RETIRED.iter().find(|r| id.eq_ignore_ascii_case(r)) {
        return SlotCheck::Warning(format!("{at}: {}", retired_warning(retired)));
    }
    let Some(package) = openclaw_package else {
        return SlotCheck::Warning(format!(
            "{at}: \"{id}\" could not be checked: no OpenClaw install found (OpenClaw refuses \
             the config when no installed plugin has this id)"
        ));
    };
    let installed = match &loaded.installed_plugins {
        Some(ids) => ids.contains(&id),
        None => installed_ids(
            loaded,
            package,
            crate::paths::openclaw_state_dir().as_deref(),
        )
        .contains(&id),
    };
    if installed {
        return SlotCheck::Fine;
    }
    if id == LANCEDB {
        return SlotCheck::Warning(format!(
            "{at}: plugin not installed: {LANCEDB} — gateway will run without persistent memory \
             until installed; install the official external plugin with: openclaw plugins \
             install @openclaw/{LANCEDB}"
        ));
    }
    SlotCheck::Refused(SchemaIssue {
        path: at.to_string(),
        message: format!("plugin not found: {id}"),
        written_at: KeyPath::parse_dotted(at),
    })
}

/// OpenClaw's `normalizeSlotValue`: trimmed; blank is unset, `none` (any case) turns it off.
fn slot_plugin(raw: &Value) -> Option<String> {
    let value = raw.pointer("/plugins/slots/memory")?.as_str()?.trim();
    (!value.is_empty() && !value.eq_ignore_ascii_case("none")).then(|| value.to_string())
}

fn retired_warning(id: &str) -> String {
    if id == "skill-workshop" {
        return "plugin removed: skill-workshop (stale plugin config ignored; Skill Workshop is \
                built into OpenClaw skills now. Use skills.workshop settings and openclaw skills \
                workshop commands, then remove this plugins config entry)"
            .to_string();
    }
    format!("plugin removed: {id} (stale config entry ignored; remove it from plugins config)")
}

/// The ids of every plugin OpenClaw would discover for this config (its state in `state`).
pub(crate) fn installed_ids(
    loaded: &LoadedConfig,
    package: &Path,
    state: Option<&Path>,
) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut roots = vec![package.join("dist/extensions")];
    if let Some(state) = state {
        roots.push(state.join("extensions"));
        roots.push(state.join("npm/node_modules"));
        indexed_ids(state, &mut ids);
    }
    if let Some(workspace) = workspace(loaded) {
        roots.push(workspace.join(".openclaw/extensions"));
    }
    for root in &roots {
        plugins_under(root, &mut ids);
    }
    // A load path is a plugin itself or a folder of plugins.
    for path in load_paths(loaded) {
        if !manifest_id(&path, &mut ids) {
            plugins_under(&path, &mut ids);
        }
    }
    ids
}

/// The plugins OpenClaw's own index names (its last discovery, and the install records of
/// plugins installed or linked from anywhere): what it knows that a folder scan cannot see.
fn indexed_ids(state: &Path, ids: &mut BTreeSet<String>) {
    let db = crate::state_db::database(state);
    if !db.is_file() {
        return;
    }
    let Ok(Some(text)) = crate::state_db::text_row(&db, crate::state_db::INSTALLED_PLUGINS) else {
        return;
    };
    let Ok(stored) = serde_json::from_str::<Value>(&text) else {
        return;
    };
    let index = &stored["index"];
    if let Some(records) = index["installRecords"].as_object() {
        ids.extend(records.keys().cloned());
    }
    let plugins = index["plugins"].as_array().into_iter().flatten();
    ids.extend(plugins.filter_map(|p| p["pluginId"].as_str().map(str::to_string)));
}

/// The default agent's configured workspace, else OpenClaw's default one.
fn workspace(loaded: &LoadedConfig) -> Option<PathBuf> {
    let agent = loaded.default_agent_id();
    let configured = loaded
        .agent(&agent)
        .and_then(|a| a.entry.workspace.clone())
        .or_else(|| loaded.openclaw.agents.defaults.workspace.clone());
    let home = crate::paths::home_dir();
    match configured {
        Some(raw) => Some(crate::paths::expand_path(
            &raw,
            home.as_deref(),
            config_dir(loaded),
        )),
        None => crate::paths::openclaw_default_workspace(&agent, true),
    }
}

fn config_dir(loaded: &LoadedConfig) -> Option<&Path> {
    loaded.path.as_deref().and_then(Path::parent)
}

fn load_paths(loaded: &LoadedConfig) -> Vec<PathBuf> {
    let home = crate::paths::home_dir();
    loaded
        .raw
        .pointer("/plugins/load/paths")
        .and_then(Value::as_array)
        .map(|paths| {
            paths
                .iter()
                .filter_map(Value::as_str)
                .map(|raw| crate::paths::expand_path(raw, home.as_deref(), config_dir(loaded)))
                .collect()
        })
        .unwrap_or_default()
}

/// Every plugin directly under `root`, and one level further for npm scopes (`@scope/name`).
fn plugins_under(root: &Path, ids: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten().take(PLUGINS_PER_ROOT) {
        let dir = entry.path();
        let scoped = entry.file_name().to_string_lossy().starts_with('@');
        if scoped {
            if let Ok(inner) = std::fs::read_dir(&dir) {
                for plugin in inner.flatten().take(PLUGINS_PER_ROOT) {
                    manifest_id(&plugin.path(), ids);
                }
            }
        } else {
            manifest_id(&dir, ids);
        }
    }
}

/// Adds the id of the plugin in `dir` (its manifest's `id`); false when `dir` holds none.
fn manifest_id(dir: &Path, ids: &mut BTreeSet<String>) -> bool {
    let Some(manifest) = plugin_manifest(dir) else {
        return false;
    };
    if let Some(id) = manifest.ok().as_ref().and_then(PluginManifest::id) {
        ids.insert(id.to_string());
    }
    true
}

/// What clawdeck reads of a plugin's manifest (the rest, often tens of kilobytes of config
/// schema, is skipped unread). Each field is kept as written: a wrong type means "not given".
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PluginManifest {
    id: Option<Value>,
    enabled_by_default: Option<Value>,
    skills: Option<Value>,
}

impl PluginManifest {
    pub(crate) fn id(&self) -> Option<&str> {
        self.id.as_ref()?.as_str()
    }

    pub(crate) fn enabled_by_default(&self) -> bool {
        self.enabled_by_default == Some(Value::Bool(true))
    }

    /// The `skills` folders, when the manifest lists any (as written, not yet checked).
    pub(crate) fn skills(&self) -> Option<impl Iterator<Item = &str>> {
        Some(
            self.skills
                .as_ref()?
                .as_array()?
                .iter()
                .filter_map(Value::as_str),
        )
    }
}

/// The manifest of the plugin in `dir`: None when there is none, Err when it does not parse.
/// Read as JSON first (what OpenClaw writes), as JSON5 (what it accepts) when that fails.
pub(crate) fn plugin_manifest(dir: &Path) -> Option<Result<PluginManifest, ConfigError>> {
    let path = dir.join(MANIFEST);
    let text = super::read_text::read_config_text(&path).ok()?;
    Some(
        serde_json::from_str(&text)
            .or_else(|_| super::parse_json5::<PluginManifest>(&text, &path.display().to_string())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> LoadedConfig {
        crate::config::load_from_str_with_pack(text, "test.json5", "2026.9").unwrap()
    }

    /// A fake OpenClaw package with bundled plugins `ids`.
    fn package(ids: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for id in ids {
            let plugin = dir.path().join("dist/extensions").join(id);
            std::fs::create_dir_all(&plugin).unwrap();
            std::fs::write(plugin.join(MANIFEST), format!("{{\"id\": \"{id}\"}}")).unwrap();
        }
        dir
    }

    fn slot(memory: &str) -> String {
        format!("{{plugins: {{slots: {{memory: {memory:?}}}}}}}")
    }

    #[test]
    fn a_slot_naming_no_installed_plugin_is_refused_and_a_bundled_one_is_fine() {
        let pkg = package(&["memory-core", "memory-wiki"]);
        let found = memory_slot(&config(&slot("memory-wiki")), Some(pkg.path()));
        assert_eq!(found, SlotCheck::Fine);
        match memory_slot(&config(&slot(" Memory-Core")), Some(pkg.path())) {
            SlotCheck::Refused(issue) => {
                assert_eq!(issue.path, "plugins.slots.memory");
                // OpenClaw trims the id but matches it exactly.
                assert_eq!(issue.message, "plugin not found: Memory-Core");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn none_blank_retired_and_lancedb_are_not_refused() {
        let pkg = package(&["memory-core"]);
        for fine in ["none", "NONE", "  "] {
            assert_eq!(
                memory_slot(&config(&slot(fine)), Some(pkg.path())),
                SlotCheck::Fine
            );
        }
        let warning = |memory: &str| match memory_slot(&config(&slot(memory)), Some(pkg.path())) {
            SlotCheck::Warning(w) => w,
            other => panic!("{memory}: {other:?}"),
        };
        assert!(
            warning("memory-lancedb").contains("openclaw plugins install @openclaw/memory-lancedb")
        );
        assert!(warning("skill-workshop").contains("plugin removed: skill-workshop"));
        assert!(warning("google-gemini-cli-auth").contains("stale config entry ignored"));
    }

    #[test]
    fn load_paths_count_as_installed_and_no_install_means_not_checked() {
        let pkg = package(&[]);
        let own = tempfile::tempdir().unwrap();
        let plugin = own.path().join("mine");
        std::fs::create_dir_all(&plugin).unwrap();
        std::fs::write(plugin.join(MANIFEST), "{id: 'my-mem', kind: 'memory'}").unwrap();
        // The plugin itself, and the folder it is in.
        for path in [plugin.clone(), own.path().to_path_buf()] {
            let text = format!(
                "{{plugins: {{load: {{paths: [{:?}]}}, slots: {{memory: 'my-mem'}}}}}}",
                path.display().to_string()
            );
            assert_eq!(
                memory_slot(&config(&text), Some(pkg.path())),
                SlotCheck::Fine
            );
        }
        match memory_slot(&config(&slot("my-mem")), None) {
            SlotCheck::Warning(w) => assert!(w.contains("could not be checked"), "{w}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn openclaws_own_plugin_index_counts_linked_and_recorded_plugins() {
        let state = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(state.path().join("state")).unwrap();
        let db = rusqlite::Connection::open(crate::state_db::database(state.path())).unwrap();
        db.execute_batch(
            "CREATE TABLE config_machine_state (state_key TEXT PRIMARY KEY, value_json TEXT);",
        )
        .unwrap();
        let index = serde_json::json!({"index": {
            "installRecords": {"linked-mem": {"source": "path", "installPath": "/elsewhere"}},
            "plugins": [{"pluginId": "memory-core"}, {"pluginId": "indexed-mem"}],
        }});
        db.execute(
            "INSERT INTO config_machine_state VALUES ('plugins.installedIndex', ?1)",
            [index.to_string()],
        )
        .unwrap();
        let mut ids = BTreeSet::new();
        indexed_ids(state.path(), &mut ids);
        let expected: BTreeSet<String> = ["indexed-mem", "linked-mem", "memory-core"]
            .map(String::from)
            .into();
        assert_eq!(ids, expected);
        // No database, or none of OpenClaw's: nothing added, nothing fails.
        let mut none = BTreeSet::new();
        indexed_ids(&state.path().join("missing"), &mut none);
        assert!(none.is_empty());
    }
}
