//! The auth profiles OpenClaw keeps in its state (`openclaw onboard`, `openclaw models auth
//! paste-api-key`): which providers have a stored credential, never the credential itself.
//!
//! Seen on 2026.9.6 and 2026.8.2: the default agent's profiles go into the shared store (the
//! state database's `config_machine_state` row `authProfiles.store`); another agent's into its
//! own database (`<agentDir>/openclaw-agent.sqlite`, table `auth_profile_store`, row `primary`,
//! agentDir defaulting to `<state>/agents/<id>/agent`). An agent's run reads the shared store and
//! its own: a profile stored for `ops` brings nothing to `main`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::state_db::{self, StateRow};

/// Most profiles read from one store; the rest are counted in a warning.
pub const MAX_PROFILES_PER_STORE: usize = 1000;

/// Most agent databases read for one config (one per configured agent).
pub const MAX_AGENT_STORES: usize = 256;

/// Whose store a profile is in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum StoreOwner {
    /// The shared store every agent reads (where the default agent's profiles go).
    Shared,
    /// One agent's own store, read by that agent's runs only.
    Agent(String),
}

/// One stored profile: its id, the provider it is filed under and its type (`api_key`,
/// `oauth`, `token`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredProfile {
    pub id: String,
    pub provider: String,
    pub kind: String,
}

/// One store's profiles and where they were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileStore {
    pub owner: StoreOwner,
    /// The database file.
    pub path: PathBuf,
    pub profiles: Vec<StoredProfile>,
}

impl ProfileStore {
    /// Whether a run of `agent` reads this store; `None` asks about any agent's run.
    pub fn read_by(&self, agent: Option<&str>) -> bool {
        match (&self.owner, agent) {
            (StoreOwner::Shared, _) | (_, None) => true,
            (StoreOwner::Agent(owner), Some(agent)) => owner == agent,
        }
    }

    /// Where a profile of this store is, in words: `auth profile fal:manual (shared store,
    /// /home/u/.openclaw/state/openclaw.sqlite)`.
    pub fn describe(&self, profile: &StoredProfile) -> String {
        let whose = match &self.owner {
            StoreOwner::Shared => "shared store".to_string(),
            StoreOwner::Agent(agent) => format!("agent {agent}'s store"),
        };
        format!(
            "auth profile {} ({whose}, {})",
            crate::sanitize::visible(&profile.id).text,
            self.path.display()
        )
    }
}

/// The shared store's row.
const SHARED_STORE: StateRow = StateRow::new(
    "config_machine_state",
    "state_key",
    "value_json",
    "authProfiles.store",
);

/// An agent database's row.
const AGENT_STORE: StateRow =
    StateRow::new("auth_profile_store", "store_key", "store_json", "primary");

#[derive(Deserialize)]
struct StoreDocument {
    #[serde(default)]
    profiles: BTreeMap<String, ProfileDocument>,
}

/// A profile's fields clawdeck keeps; the key, token or secret fields are never read into it.
#[derive(Deserialize)]
struct ProfileDocument {
    #[serde(default)]
    provider: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

/// The database an agent's own profiles are in: `<agentDir>/openclaw-agent.sqlite`.
pub fn agent_database(state: &Path, agent: &str, agent_dir: Option<&str>) -> PathBuf {
    let dir = match agent_dir.map(str::trim).filter(|d| !d.is_empty()) {
        Some(dir) => crate::paths::expand_tilde(dir),
        None => state.join("agents").join(agent).join("agent"),
    };
    dir.join("openclaw-agent.sqlite")
}

/// The stores under state dir `state` for `agents` (id and configured agentDir): the shared one
/// and each agent's that exists and holds profiles. What cannot be read is a warning naming the
/// file, and its profiles count as absent.
pub fn read_stores(
    state: &Path,
    agents: &[(String, Option<String>)],
) -> (Vec<ProfileStore>, Vec<String>) {
    let mut stores = Vec::new();
    let mut warnings = Vec::new();
    let mut wanted = vec![(StoreOwner::Shared, state_db::database(state), SHARED_STORE)];
    for (agent, dir) in agents.iter().take(MAX_AGENT_STORES) {
        let path = agent_database(state, agent, dir.as_deref());
        wanted.push((StoreOwner::Agent(agent.clone()), path, AGENT_STORE));
    }
    if agents.len() > MAX_AGENT_STORES {
        warnings.push(format!(
            "auth profiles: read the stores of the first {MAX_AGENT_STORES} agents; {} more not read",
            agents.len() - MAX_AGENT_STORES
        ));
    }
    for (owner, path, row) in wanted {
        if !path.is_file() {
            continue;
        }
        match read_store(&path, row) {
            Ok(None) => {}
            Ok(Some((profiles, left_out))) => {
                if left_out > 0 {
                    warnings.push(format!(
                        "{}: read the first {MAX_PROFILES_PER_STORE} auth profiles; {left_out} more not counted",
                        path.display()
                    ));
                }
                stores.push(ProfileStore {
                    owner,
                    path,
                    profiles,
                });
            }
            Err(err) => warnings.push(format!(
                "{}: its auth profiles could not be read ({err}); they are not counted as credentials",
                path.display()
            )),
        }
    }
    (stores, warnings)
}

/// One store's profiles (at most [`MAX_PROFILES_PER_STORE`]) and how many more it holds; `None`
/// when the database has no such row.
fn read_store(path: &Path, row: StateRow) -> Result<Option<(Vec<StoredProfile>, usize)>, String> {
    let Some(text) = state_db::text_row(path, row)? else {
        return Ok(None);
    };
    let document: StoreDocument = serde_json::from_str(&text)
        .map_err(|err| format!("row `{}` is not an auth profile store: {err}", row.key()))?;
    let total = document.profiles.len();
    let profiles = document
        .profiles
        .into_iter()
        .filter_map(|(id, profile)| {
            Some(StoredProfile {
                id,
                provider: profile.provider?,
                kind: profile.kind.unwrap_or_default(),
            })
        })
        .take(MAX_PROFILES_PER_STORE)
        .collect();
    Ok(Some((
        profiles,
        total.saturating_sub(MAX_PROFILES_PER_STORE),
    )))
}

/// A provider id as OpenClaw files credentials under it: trimmed, lower case, then through the
/// manifests' auth aliases (`x-ai` is `xai`).
pub fn provider_for_auth(provider: &str, aliases: &BTreeMap<String, String>) -> String {
    let normalized = provider.trim().to_lowercase();
    aliases.get(&normalized).cloned().unwrap_or(normalized)
}

/// The first profile a run of `agent` reads (`None`: any agent's) for one of `providers`, in
/// words ([`ProfileStore::describe`]).
pub fn profile_for(
    stores: &[ProfileStore],
    agent: Option<&str>,
    providers: &[String],
    aliases: &BTreeMap<String, String>,
) -> Option<String> {
    let wanted: Vec<String> = providers
        .iter()
        .map(|p| provider_for_auth(p, aliases))
        .collect();
    stores
        .iter()
        .filter(|store| store.read_by(agent))
        .find_map(|store| {
            store
                .profiles
                .iter()
                .find(|profile| wanted.contains(&provider_for_auth(&profile.provider, aliases)))
                .map(|profile| store.describe(profile))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_row(db: &Path, table: &str, key_col: &str, text_col: &str, key: &str, text: &str) {
        std::fs::create_dir_all(db.parent().unwrap()).unwrap();
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.execute_batch(&format!(
            "CREATE TABLE IF NOT EXISTS {table} ({key_col} TEXT PRIMARY KEY, {text_col} TEXT)"
        ))
        .unwrap();
        conn.execute(&format!("INSERT INTO {table} VALUES (?1, ?2)"), [key, text])
            .unwrap();
    }

    #[test]
    fn the_shared_store_serves_every_agent_and_an_agents_store_only_that_agent() {
        let state = tempfile::tempdir().unwrap();
        write_row(
            &state_db::database(state.path()),
            "config_machine_state",
            "state_key",
            "value_json",
            "authProfiles.store",
            r#"{"version":1,"profiles":{"fal:manual":{"type":"api_key","provider":"fal","key":"k"}}}"#,
        );
        write_row(
            &agent_database(state.path(), "ops", None),
            "auth_profile_store",
            "store_key",
            "store_json",
            "primary",
            r#"{"version":1,"profiles":{"x:manual":{"type":"api_key","provider":"X-AI","key":"k"}}}"#,
        );
        let agents = [("main".to_string(), None), ("ops".to_string(), None)];
        let (stores, warnings) = read_stores(state.path(), &agents);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(stores.len(), 2);
        let aliases = BTreeMap::from([("x-ai".to_string(), "xai".to_string())]);
        let xai = ["xai".to_string()];
        assert!(profile_for(&stores, Some("ops"), &xai, &aliases).is_some());
        assert_eq!(profile_for(&stores, Some("main"), &xai, &aliases), None);
        assert!(profile_for(&stores, None, &xai, &aliases).is_some());
        let fal = profile_for(&stores, Some("ops"), &["fal".to_string()], &aliases).unwrap();
        assert!(
            fal.starts_with("auth profile fal:manual (shared store, "),
            "{fal}"
        );
        // The key is never kept.
        assert!(!format!("{stores:?}").contains("\"k\""));
    }

    #[test]
    fn a_broken_store_is_a_warning_naming_its_file() {
        let state = tempfile::tempdir().unwrap();
        let db = state_db::database(state.path());
        write_row(
            &db,
            "config_machine_state",
            "state_key",
            "value_json",
            "authProfiles.store",
            "[1,",
        );
        let (stores, warnings) = read_stores(state.path(), &[]);
        assert!(stores.is_empty());
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].starts_with(&db.display().to_string()),
            "{warnings:?}"
        );
        assert!(
            warnings[0].contains("not an auth profile store"),
            "{warnings:?}"
        );
    }

    #[test]
    fn an_agent_dir_from_the_config_is_where_its_store_is() {
        let state = Path::new("/s");
        assert_eq!(
            agent_database(state, "ops", None),
            Path::new("/s/agents/ops/agent/openclaw-agent.sqlite")
        );
        assert_eq!(
            agent_database(state, "ops", Some("/elsewhere/ops")),
            Path::new("/elsewhere/ops/openclaw-agent.sqlite")
        );
    }
}
