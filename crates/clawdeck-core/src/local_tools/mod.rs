//! The tools clawdeck runs itself, and the `ToolSet` that maps names to runnable tools.
//!
//! `ToolSet::standard` builds one for a context: the file tools behind that context's path guard,
//! exec/process sharing the runtime's background sessions, the local system tools, every plugin
//! tool as an external command, and for any other catalog tool a runner that says it only runs
//! inside OpenClaw. Crates above the core add or replace tools through a [`ToolSupplier`] in the
//! runtime (the router supplies `clawbot_router` and gateway-backed platform tools that way).

pub mod apply_patch;
pub mod apps;
pub(crate) mod beneath;
pub mod edit;
pub mod exec;
pub(crate) mod external;
pub(crate) mod guarded_io;
pub(crate) mod path_guard;
pub mod plugin;
pub mod process_tool;
pub mod read;
pub mod sessions;
pub mod specs;
pub(crate) mod system_env;
pub mod unavailable;
pub mod volume;
pub mod workspace;
pub mod write;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::tool::{SharedTool, ToolError, ToolSpec};

pub use path_guard::{PathAccess, PathGuard, WorkspaceAccess};
pub use sessions::{ExecSession, ExecSessions, SessionCapReached};
pub use system_env::SystemEnv;

/// Tools a crate above the core runs, added to every tool set after the standard ones
/// (replacing same-named runners).
pub trait ToolSupplier: Send + Sync {
    /// The tools for a context: `catalog` is the registry's specs, `agent` the context's agent.
    fn tools(&self, catalog: &[ToolSpec], agent: Option<&str>) -> Vec<SharedTool>;
}

/// State shared by every tool set of one clawdeck instance (background exec sessions outlive a
/// single call and must be visible to `process` in later calls).
#[derive(Clone)]
pub struct ToolRuntime {
    pub sessions: ExecSessions,
    pub system: SystemEnv,
    /// Suppliers of tools run outside the core (the router's), asked for every tool set.
    pub suppliers: Vec<Arc<dyn ToolSupplier>>,
}

impl std::fmt::Debug for ToolRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolRuntime")
            .field("sessions", &self.sessions)
            .field("system", &self.system)
            .field("suppliers", &self.suppliers.len())
            .finish()
    }
}

impl ToolRuntime {
    pub fn new(config: &LoadedConfig) -> ToolRuntime {
        let sessions = ExecSessions::new(Duration::from_secs(
            config.settings.exec.session_ttl_seconds,
        ));
        sessions.set_max_running(config.settings.exec.max_background_sessions);
        ToolRuntime {
            sessions,
            system: SystemEnv::from_env(),
            suppliers: Vec::new(),
        }
    }

    /// Adds a supplier whose tools join every tool set built from now on.
    pub fn with_supplier(mut self, supplier: Arc<dyn ToolSupplier>) -> ToolRuntime {
        self.suppliers.push(supplier);
        self
    }
}

/// Runnable tools by name.
#[derive(Clone, Default)]
pub struct ToolSet {
    tools: BTreeMap<String, SharedTool>,
}

impl std::fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSet")
            .field("tools", &self.tools.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl ToolSet {
    pub fn new() -> ToolSet {
        ToolSet::default()
    }

    /// Adds a tool, replacing any tool of the same name.
    pub(crate) fn insert(&mut self, tool: SharedTool) {
        self.tools.insert(tool.spec().name.clone(), tool);
    }

    pub fn get(&self, name: &str) -> Option<SharedTool> {
        self.tools.get(name).cloned()
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The standard tools for `ctx` (see the module comment). Fails only when the sandbox
    /// workspace cannot be created.
    pub(crate) fn standard(
        config: &LoadedConfig,
        registry: &Registry,
        ctx: &PolicyContext,
        runtime: &ToolRuntime,
    ) -> Result<ToolSet, ToolError> {
        let guard = Arc::new(workspace::path_guard_for(config, ctx)?);
        let mut set = ToolSet::new();
        // The registry's spec is the catalog's; fall back to the catalog itself when a custom
        // registry leaves a built-in out.
        let spec_for = |name: &str| {
            registry
                .get(name)
                .cloned()
                .or_else(|| specs::builtin_spec(name))
        };
        for name in specs::BUILTIN_TOOL_NAMES {
            if let Some(spec) = spec_for(name)
                && let Some(tool) = builtin_tool(spec, &guard, config, runtime)
            {
                set.insert(tool);
            }
        }
        for spec in &registry.tools {
            if set.contains(&spec.name) {
                continue;
            }
            let tool: SharedTool = match registry.plugin_tool_commands.get(&spec.name) {
                Some(command) => Arc::new(plugin::PluginTool::new(spec.clone(), command.clone())),
                None => Arc::new(unavailable::UnavailableTool::new(spec.clone())),
            };
            set.insert(tool);
        }
        // clawbot_router, and gateway-backed runners for OpenClaw-only tools when a gateway is set.
        for supplier in &runtime.suppliers {
            for tool in supplier.tools(&registry.tools, ctx.agent.as_deref()) {
                set.insert(tool);
            }
        }
        Ok(set)
    }
}

/// The runner for one built-in tool name.
fn builtin_tool(
    spec: ToolSpec,
    guard: &Arc<PathGuard>,
    config: &LoadedConfig,
    runtime: &ToolRuntime,
) -> Option<SharedTool> {
    let guard = Arc::clone(guard);
    let tool: SharedTool = match spec.name.as_str() {
        "read" => Arc::new(read::ReadTool::new(spec, guard)),
        "write" => Arc::new(write::WriteTool::new(spec, guard)),
        "edit" => Arc::new(edit::EditTool::new(spec, guard)),
        "apply_patch" => Arc::new(apply_patch::ApplyPatchTool::new(spec, guard)),
        "exec" => Arc::new(exec::ExecTool::new(
            spec,
            guard,
            config.settings.exec.clone(),
            runtime.sessions.clone(),
        )),
        "process" => Arc::new(process_tool::ProcessTool::new(
            spec,
            runtime.sessions.clone(),
        )),
        "system_volume_control" => Arc::new(volume::VolumeTool::new(spec, runtime.system.clone())),
        "start_app" => Arc::new(apps::StartAppTool::new(spec, runtime.system.clone())),
        "open_website" => Arc::new(apps::OpenWebsiteTool::new(spec, runtime.system.clone())),
        _ => return None,
    };
    Some(tool)
}
