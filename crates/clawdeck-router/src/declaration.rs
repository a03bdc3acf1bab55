//! The `clawbot_router` declaration the main LLM sees (seed 000 §2, plus §5's parameters).

use serde_json::{Value, json};

use crate::tool::{ToolFlags, ToolSource, ToolSpec};

use super::guidance::PRE_CALL_NOTICE;

pub const TOOL_NAME: &str = "clawbot_router";

/// The tool description (seed 000 §2, with the §3.2 notice rule).
pub fn description() -> String {
    format!(
        "使用远程 clawBot / OpenClaw 多 Agent 能力处理复杂任务，例如日志分析、运维排查、跨系统信息整合。\
当本地 tools 无法完成任务（如「总结最近日志」「综合多天运维记录」）时，可以调用本工具；能用本地工具完成的任务请优先使用本地工具。\
本工具只在远端环境工作，不会直接操作当前用户电脑。\
调用前请先对用户说：「{PRE_CALL_NOTICE}」；拿到结果后再用用户能理解的语言总结回答。"
    )
}

/// The parameters schema: `message` (required), `agent`, `timeoutSeconds`, `mode`.
pub fn parameters(min_timeout: u64, max_timeout: u64, default_timeout: u64) -> Value {
    json!({
        "type": "object",
        "properties": {
            "agent": {
                "type": "string",
                "description": "要调用的远程 Agent 名称，缺省时使用默认主 Agent（例如 main）。例如：\"ops\"。"
            },
            "message": {
                "type": "string",
                "description": "要转交给 clawBot 的用户任务描述，自然语言，例如：\"把最近的运维日志总结成两条要点\"。"
            },
            "timeoutSeconds": {
                "type": "integer",
                "minimum": min_timeout,
                "maximum": max_timeout,
                "description": format!("本次任务最长等待秒数（{min_timeout}–{max_timeout}，默认 {default_timeout}）。超时后远程调用被中止。")
            },
            "mode": {
                "type": "string",
                "enum": ["read-only", "write"],
                "description": "read-only（默认）：只读分析；write：允许对远端环境执行写操作（如发送告警消息）。"
            }
        },
        "required": ["message"]
    })
}

/// The full spec, with the default 30–60 s bounds (45 s default).
pub fn spec() -> ToolSpec {
    spec_with_bounds(30, 60, 45)
}

/// The catalog's `clawbot_router` entry (the one the policy engine and the provider exports
/// see), with the configured timeout bounds written into its schema. Falls back to this
/// module's own declaration if the catalog lacks the entry; a test keeps the two in agreement.
pub(crate) fn spec_with_bounds(
    min_timeout: u64,
    max_timeout: u64,
    default_timeout: u64,
) -> ToolSpec {
    let mut spec = crate::catalog::core_specs()
        .into_iter()
        .find(|s| s.name == TOOL_NAME)
        .unwrap_or_else(|| own_spec(min_timeout, max_timeout, default_timeout));
    if let Some(Value::Object(t)) = spec.parameters.pointer_mut("/properties/timeoutSeconds") {
        t.insert("minimum".into(), json!(min_timeout));
        t.insert("maximum".into(), json!(max_timeout));
        t.insert(
            "description".into(),
            json!(format!(
                "本次任务最长等待秒数（{min_timeout}–{max_timeout}，默认 {default_timeout}）。超时后远程调用被中止。 (Timeout in seconds, {min_timeout}-{max_timeout}, default {default_timeout}.)"
            )),
        );
    }
    spec
}

/// This module's own declaration (seed 000 §2 plus §5's parameters).
pub(crate) fn own_spec(min_timeout: u64, max_timeout: u64, default_timeout: u64) -> ToolSpec {
    ToolSpec {
        name: TOOL_NAME.to_string(),
        label: "clawBot Router".to_string(),
        description: description(),
        summary: "把复杂任务（日志总结、运维排查、跨系统信息整合）交给远程 clawBot / OpenClaw；只在远端工作".to_string(),
        emoji: "🛰️".to_string(),
        parameters: parameters(min_timeout, max_timeout, default_timeout),
        source: ToolSource::Remote,
        flags: ToolFlags::default(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn own_declaration_agrees_with_the_catalog() {
        let own = own_spec(30, 60, 45);
        let catalog = spec();
        assert_eq!(own.name, catalog.name);
        assert_eq!(own.source, catalog.source);
        assert_eq!(own.flags, catalog.flags);
        assert_eq!(own.parameters["required"], catalog.parameters["required"]);
        let keys = |v: &Value| {
            let mut k: Vec<String> = v["properties"]
                .as_object()
                .map(|m| m.keys().cloned().collect())
                .unwrap_or_default();
            k.sort();
            k
        };
        assert_eq!(keys(&own.parameters), keys(&catalog.parameters));
        for p in [
            "/properties/mode/enum",
            "/properties/timeoutSeconds/minimum",
            "/properties/timeoutSeconds/maximum",
        ] {
            assert_eq!(
                own.parameters.pointer(p),
                catalog.parameters.pointer(p),
                "{p}"
            );
        }
        assert!(catalog.description.contains("不会直接操作当前用户电脑"));
        assert!(catalog.description.contains(PRE_CALL_NOTICE));
        assert_eq!(
            spec_with_bounds(5, 20, 10).parameters["properties"]["timeoutSeconds"]["maximum"],
            json!(20)
        );
    }

    #[test]
    fn declaration_matches_seed() {
        let s = own_spec(30, 60, 45);
        assert_eq!(s.name, "clawbot_router");
        assert_eq!(s.parameters["required"], json!(["message"]));
        assert!(s.description.contains("不会直接操作当前用户电脑"));
        assert!(s.description.contains(PRE_CALL_NOTICE));
        assert_eq!(
            s.parameters["properties"]["mode"]["enum"],
            json!(["read-only", "write"])
        );
        assert_eq!(
            s.parameters["properties"]["timeoutSeconds"]["maximum"],
            json!(60)
        );
        assert_eq!(s.source, ToolSource::Remote);
        assert!(!s.flags.local_system);
    }
}
