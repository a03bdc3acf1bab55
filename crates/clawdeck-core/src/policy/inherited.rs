//! What a spawned subagent inherits from the turn that spawned it.
//!
//! When a turn calls `sessions_spawn`, OpenClaw stores two lists on the child session
//! (`session-create-service`: `inheritedToolAllow`, `inheritedToolDeny`) and applies them on
//! every turn of the child as one more AND-ed policy (`resolveInheritedToolPolicyForSession`):
//! - deny: every deny entry of the spawner's chain (`explicitToolDenylist`), the owner-only
//!   tools among them when the spawner was not an owner;
//! - allow: the spawner's own tool list, but only when one of its layers had a restrictive
//!   allowlist (`hasRestrictiveAllowPolicy`: a list without `*`).

use super::layer::{LayerId, LayerPolicy, RuleEntry};

const LABEL: &str = "inherited from the spawner";

/// A spawned subagent's own turn takes no group or sender policy: OpenClaw resolves either
/// those or the child's stored inherited lists, never both (`resolveRequesterToolPolicies`,
/// both releases), and a spawned child has stored lists. The spawner's group and sender rules
/// reach it through the inherited layer.
pub(crate) fn leave_to_inheritance(layers: &mut [LayerPolicy]) {
    let own = layers
        .iter_mut()
        .filter(|l| matches!(l.id, LayerId::Group | LayerId::Sender) && l.present);
    for layer in own {
        layer.present = false;
        layer.note = format!(
            "not applied to a spawned subagent's own turn: the spawner's reaches it as what it inherits ({})",
            layer.note
        );
    }
}

/// Whether an allowlist restricts (OpenClaw's `hasRestrictiveAllowPolicy`): it names a tool and
/// no `*`. An empty list does not.
fn restricts(allow: &[RuleEntry]) -> bool {
    !allow.is_empty() && allow.iter().all(|e| e.pattern.trim() != "*")
}

/// The inherited layer of a subagent spawned by `spawner_key`, from the spawner's layers and
/// the tools the spawner saw.
pub(crate) fn inherited_layer(
    spawner_key: &str,
    spawner_layers: &[LayerPolicy],
    spawner_visible: &[&str],
) -> LayerPolicy {
    let applied = spawner_layers.iter().filter(|l| l.present);
    let mut deny = Vec::new();
    let mut restricting = None;
    for layer in applied {
        for entry in &layer.deny {
            let rule = match &entry.builtin {
                Some(rule) => format!("the spawner's {} layer: {rule}", layer.id),
                None => format!("denied to the spawner ({} layer)", layer.id),
            };
            deny.push(RuleEntry {
                pattern: entry.pattern.clone(),
                config_path: entry.config_path.clone(),
                builtin: Some(rule),
            });
        }
        if restricting.is_none() && layer.allow.as_deref().is_some_and(restricts) {
            restricting = Some(layer.id);
        }
    }
    let allow = restricting.map(|id| {
        spawner_visible
            .iter()
            .map(|name| {
                RuleEntry::builtin(
                    *name,
                    format!("in the spawner's tool list (its {id} layer had an allowlist)"),
                )
            })
            .collect::<Vec<_>>()
    });
    let mut note = format!("spawned by session \"{spawner_key}\"");
    match restricting {
        Some(id) => note.push_str(&format!(
            "; its tool list is inherited as an allowlist ({id} layer had one)"
        )),
        None => note.push_str("; its denials are inherited (none of its allowlists restricted)"),
    }
    LayerPolicy {
        id: LayerId::Inherited,
        label: LABEL.to_string(),
        present: true,
        source_path: None,
        defaults_plus: None,
        miss_reason: allow
            .as_ref()
            .map(|_| format!("not among the tools of the spawner (\"{spawner_key}\")")),
        allow,
        allow_path: None,
        deny,
        note,
    }
}
