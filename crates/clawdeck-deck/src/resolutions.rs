//! The policy resolutions of one installed config, per context: computed once on first ask
//! (off the console's task), kept for the config's life, bounded.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use crate::catalog::Registry;
use crate::config::LoadedConfig;
use crate::context::PolicyContext;
use crate::policy::Resolution;

/// Contexts kept per config; the oldest asked goes first past it.
pub const KEPT_CONTEXTS: usize = 32;

/// A resolution, or why the context cannot be resolved (shown as the Policy view's error).
pub type Resolved = Result<Arc<Resolution>, String>;

#[derive(Default)]
pub(crate) struct Resolutions {
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    by_context: HashMap<PolicyContext, Resolved>,
    /// Contexts in the order they were first resolved (the front goes first).
    order: VecDeque<PolicyContext>,
}

impl Resolutions {
    pub(crate) fn cached(&self, context: &PolicyContext) -> Option<Resolved> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.by_context.get(context).cloned()
    }

    /// The resolution for `context`, computed the first time it is asked for.
    pub(crate) fn resolve(
        &self,
        config: &LoadedConfig,
        registry: &Registry,
        context: &PolicyContext,
    ) -> Resolved {
        if let Some(known) = self.cached(context) {
            return known;
        }
        // Computed without the lock: two first asks may both compute; both get the same answer.
        let resolved = crate::policy::resolve(config, registry, context)
            .map(Arc::new)
            .map_err(|e| e.to_string());
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if !kept.by_context.contains_key(context) {
            if kept.order.len() >= KEPT_CONTEXTS
                && let Some(oldest) = kept.order.pop_front()
            {
                kept.by_context.remove(&oldest);
            }
            kept.order.push_back(context.clone());
            kept.by_context.insert(context.clone(), resolved.clone());
        }
        resolved
    }
}
