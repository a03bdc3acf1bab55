//! Code Mode's `exec` description before its index (the pack's `codeMode.description`), as the
//! release's own `createCodeModeExecDescription` writes it for a run: its time and output
//! budgets (`tools.codeMode.timeoutMs`, `memoryLimitBytes`, `maxSnapshotBytes`,
//! `maxOutputBytes`, an agent's own `tools.codeMode` over the global one, each a positive
//! integer clamped to its limits), and the parts the run's catalog and config decide: the shell
//! tool's callable name, `nodes`, MCP tools, swarm globals (on for the run, see `swarm`; 2026.9
//! also needs `sessions_spawn` callable) and skills. The capture
//! renders the text with each combination of those facts and checks it against a real run.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::code_mode::RunAgent;

/// The pack's `codeMode.description`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeModeDescription {
    /// The text with a `{{name}}` slot for each optional part and `@TIMEOUT_MS@`,
    /// `@INBOX_BYTES@`, `@MAX_OUTPUT_BYTES@` and `@SHELL@` for the run's values.
    pub template: String,
    pub parts: BTreeMap<String, String>,
    /// The run's facts (`shell+nodes+swarm`, in the order `shell`, `nodes`, `mcp`, `swarm`,
    /// `skills`) → the parts written then.
    pub combinations: BTreeMap<String, Vec<String>>,
    /// `timeoutMs`, `memoryLimitBytes`, `maxSnapshotBytes`, `maxOutputBytes`.
    pub limits: BTreeMap<String, Limit>,
    /// Swarm globals also need `sessions_spawn` callable.
    #[serde(default)]
    pub swarm_needs_spawn: bool,
}

/// A number's default and the range it is clamped to.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Limit {
    pub default: f64,
    pub min: f64,
    pub max: f64,
}

/// The budgets a run's description states.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CodeModeBudgets {
    pub timeout_ms: u64,
    /// The smaller of the memory limit and the snapshot size.
    pub inbox_bytes: u64,
    pub max_output_bytes: u64,
}

/// What of the run's catalog (and its swarm globals) the description names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogFacts {
    /// The shell tool's callable name, when the shell tool is callable from code.
    pub shell: Option<String>,
    pub nodes: bool,
    pub mcp: bool,
    pub sessions_spawn: bool,
    /// Swarm globals are on for the run ([`super::Semantics::swarm_enabled`]).
    pub swarm: bool,
    /// The run has skills (clawdeck counts the bundled ones: always).
    pub skills: bool,
}

impl CodeModeDescription {
    /// The budgets of a run of `agent` under config `raw`.
    pub fn budgets(&self, raw: &Value, agent: RunAgent<'_>) -> CodeModeBudgets {
        let object = |v: Option<&Value>| v.and_then(Value::as_object).cloned();
        let mut settings = object(raw.pointer("/tools/codeMode")).unwrap_or_default();
        if let Some(own) = object(agent.entry.and_then(|e| e.pointer("/tools/codeMode"))) {
            settings.extend(own);
        }
        let number = |key: &str| -> u64 {
            let Some(limit) = self.limits.get(key) else {
                return 0;
            };
            // OpenClaw's readPositiveInteger, then clampNumber.
            let read = settings
                .get(key)
                .and_then(Value::as_f64)
                .filter(|v| v.fract() == 0.0 && *v > 0.0)
                .unwrap_or(limit.default);
            read.clamp(limit.min, limit.max) as u64
        };
        CodeModeBudgets {
            timeout_ms: number("timeoutMs"),
            inbox_bytes: number("memoryLimitBytes").min(number("maxSnapshotBytes")),
            max_output_bytes: number("maxOutputBytes"),
        }
    }

    /// The description for a run with `budgets` whose catalog is `catalog`.
    pub fn write(&self, budgets: CodeModeBudgets, catalog: &CatalogFacts) -> String {
        let swarm = catalog.swarm && (!self.swarm_needs_spawn || catalog.sessions_spawn);
        let facts: Vec<&str> = [
            ("shell", catalog.shell.is_some()),
            ("nodes", catalog.nodes),
            ("mcp", catalog.mcp),
            ("swarm", swarm),
            ("skills", catalog.skills),
        ]
        .into_iter()
        .filter_map(|(fact, on)| on.then_some(fact))
        .collect();
        let written = self
            .combinations
            .get(&facts.join("+"))
            .cloned()
            .unwrap_or_default();
        let mut text = self.template.clone();
        for (name, part) in &self.parts {
            let filled = match written.contains(name) {
                true => part.as_str(),
                false => "",
            };
            text = text.replace(&format!("{{{{{name}}}}}"), filled);
        }
        text.replace("@TIMEOUT_MS@", &budgets.timeout_ms.to_string())
            .replace("@INBOX_BYTES@", &budgets.inbox_bytes.to_string())
            .replace("@MAX_OUTPUT_BYTES@", &budgets.max_output_bytes.to_string())
            .replace("@SHELL@", catalog.shell.as_deref().unwrap_or("exec"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn description() -> CodeModeDescription {
        super::super::embedded("2026.9")
            .and_then(|s| s.code_mode.clone())
            .and_then(|c| c.description)
            .expect("2026.9's exec description rules")
    }

    fn no_agent() -> RunAgent<'static> {
        RunAgent {
            entry: None,
            path: None,
        }
    }

    #[test]
    fn budgets_read_the_agents_setting_over_the_global_one_and_clamp_it() {
        let d = description();
        let raw = json!({ "tools": { "codeMode": { "enabled": true, "timeoutMs": 5, "maxOutputBytes": 2048 } } });
        let agent = json!({ "id": "ops", "tools": { "codeMode": { "maxOutputBytes": 4096.5 } } });
        let global = d.budgets(&raw, no_agent());
        assert_eq!(global.timeout_ms, 100, "clamped to its minimum");
        assert_eq!(global.max_output_bytes, 2048);
        assert_eq!(
            global.inbox_bytes, 10_485_760,
            "the snapshot size, under the memory limit"
        );
        let ops = d.budgets(
            &raw,
            RunAgent {
                entry: Some(&agent),
                path: Some("agents.list[1]"),
            },
        );
        assert_eq!(ops.max_output_bytes, 65_536, "not an integer: the default");
    }

    #[test]
    fn each_catalog_fact_writes_its_part() {
        let d = description();
        let budgets = d.budgets(&json!({}), no_agent());
        let bare = d.write(budgets, &CatalogFacts::default());
        assert!(bare.contains("a 10000 ms wall-clock budget"), "{bare}");
        assert!(!bare.contains("shell tool"));
        let full = d.write(
            budgets,
            &CatalogFacts {
                shell: Some("exec".into()),
                nodes: true,
                mcp: true,
                sessions_spawn: true,
                swarm: true,
                skills: true,
            },
        );
        for part in [
            "Use the shell tool `exec`",
            "- nodes: paired",
            "MCP tools use",
            "Swarm globals",
            "Skills are available",
        ] {
            assert!(full.contains(part), "{part}: {full}");
        }
        assert!(!full.contains("{{") && !full.contains('@'), "{full}");
    }
}
