//! The register layer: OpenClaw's tools as the selected semantics pack lists them
//! (assets/openclaw/), clawdeck's remote and local tools, and the tools plugins declare, with
//! their groups.

pub mod groups;
pub mod plugins;
mod registry;

use crate::tool::ToolSpec;

pub use groups::{PLUGINS_GROUP, PluginGroups};
pub use plugins::{PluginInfo, PluginToolCommand};
pub use registry::{NameIndex, Registry};

/// The seed pack's tools (OpenClaw's tools as the seeds describe them, then clawdeck's own):
/// the catalog tests and benchmarks use. A config's registry takes its tools from the pack the
/// config selected (`Registry::build`).
pub fn core_specs() -> Vec<ToolSpec> {
    crate::semantics::seed().tools.clone()
}

#[cfg(test)]
mod tests;
