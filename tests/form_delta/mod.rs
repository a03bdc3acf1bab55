//! What a pair's case turn changes in a tool's form against its base turn: the actions and the
//! fields it adds and takes away. Both sides of a pair share a gateway turn's own wording, which
//! a per-turn comparison cancels out; the change between the two turns is what the pair's
//! difference (an owner, a sender) decides, so OpenClaw's and clawdeck's must match.

use std::collections::BTreeSet;

use serde_json::Value;

/// The actions and fields one turn's form of a tool has that another's lacks, both ways.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FormDelta {
    pub actions_added: BTreeSet<String>,
    pub actions_removed: BTreeSet<String>,
    pub fields_added: BTreeSet<String>,
    pub fields_removed: BTreeSet<String>,
}

/// A function object's `action` values and field names.
fn shape(function: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    let properties = function
        .pointer("/parameters/properties")
        .and_then(Value::as_object);
    let fields = properties
        .into_iter()
        .flat_map(|p| p.keys().cloned())
        .collect();
    let actions = function
        .pointer("/parameters/properties/action/enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    (actions, fields)
}

/// What `run`'s form (a function object: `name`, `description`, `parameters`) changes against
/// `base`'s.
pub fn delta(base: &Value, run: &Value) -> FormDelta {
    let (base_actions, base_fields) = shape(base);
    let (run_actions, run_fields) = shape(run);
    let minus = |a: &BTreeSet<String>, b: &BTreeSet<String>| a.difference(b).cloned().collect();
    FormDelta {
        actions_added: minus(&run_actions, &base_actions),
        actions_removed: minus(&base_actions, &run_actions),
        fields_added: minus(&run_fields, &base_fields),
        fields_removed: minus(&base_fields, &run_fields),
    }
}

impl std::fmt::Display for FormDelta {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts = [
            ("adds actions", &self.actions_added),
            ("removes actions", &self.actions_removed),
            ("adds fields", &self.fields_added),
            ("removes fields", &self.fields_removed),
        ];
        let said: Vec<String> = parts
            .iter()
            .filter(|(_, names)| !names.is_empty())
            .map(|(what, names)| {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                format!("{what} {}", names.join(", "))
            })
            .collect();
        if said.is_empty() {
            f.write_str("changes no action or field")
        } else {
            f.write_str(&said.join("; "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn form(actions: &[&str], fields: &[&str]) -> Value {
        let mut properties = serde_json::Map::new();
        properties.insert("action".into(), json!({"type": "string", "enum": actions}));
        for field in fields {
            properties.insert((*field).into(), json!({"type": "string"}));
        }
        json!({"name": "message", "parameters": {"type": "object", "properties": properties}})
    }

    #[test]
    fn an_owners_turn_adding_an_action_and_a_field_is_that_delta() {
        let base = form(&["read", "send"], &["emoji"]);
        let run = form(&["permissions", "read", "send"], &["emoji", "displayName"]);
        let change = delta(&base, &run);
        assert_eq!(
            change.to_string(),
            "adds actions permissions; adds fields displayName"
        );
        assert_eq!(delta(&run, &run).to_string(), "changes no action or field");
        assert_ne!(change, delta(&base, &base));
    }
}
