//! Which catalog tools clawdeck runs itself. Their specs (what the LLM is shown and what
//! parameters are validated against) come from the catalog only, so the two never drift apart.

use crate::tool::ToolSpec;

/// The catalog's spec for a tool clawdeck runs itself; `None` for any other name.
pub fn builtin_spec(name: &str) -> Option<ToolSpec> {
    if !BUILTIN_TOOL_NAMES.contains(&name) {
        return None;
    }
    crate::catalog::core_specs()
        .into_iter()
        .find(|spec| spec.name == name)
}

/// Names of the tools clawdeck runs itself.
pub(crate) const BUILTIN_TOOL_NAMES: &[&str] = &[
    "read",
    "write",
    "edit",
    "apply_patch",
    "exec",
    "process",
    "system_volume_control",
    "start_app",
    "open_website",
];
