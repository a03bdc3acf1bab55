//! The register layer: OpenClaw's core tools as data (assets/catalog.json), clawdeck's remote and
//! local tools, and the tools plugins declare, with their groups.

pub mod groups;
pub mod plugins;
mod registry;

use crate::tool::ToolSpec;

pub use groups::{CORE_GROUPS, PLUGINS_GROUP, PluginGroups};
pub use plugins::{PluginInfo, PluginToolCommand};
pub use registry::{NameIndex, Registry};

const CATALOG_JSON: &str = include_str!("../../assets/catalog.json");

#[derive(serde::Deserialize)]
struct CatalogFile {
    tools: Vec<ToolSpec>,
}

/// Every built-in tool: OpenClaw's core and platform tools, `clawbot_router`, and the local
/// system tools of seed 000. The asset is checked by a unit test, so a parse failure here can
/// only come from a broken build; it yields an empty list and an error log rather than a panic.
pub fn core_specs() -> Vec<ToolSpec> {
    match serde_json::from_str::<CatalogFile>(CATALOG_JSON) {
        Ok(file) => file.tools,
        Err(err) => {
            tracing::error!("assets/catalog.json is invalid: {err}");
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests;
