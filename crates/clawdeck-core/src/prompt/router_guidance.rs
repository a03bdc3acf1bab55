//! What the main LLM is told about `clawbot_router` (seed 000 §3.2 and §4).
//!
//! The handler never speaks to the user; the "say the notice first" rule lives in the prompt.

/// The sentence the main LLM says to the user before calling the router (seed 000 §3.2).
pub const PRE_CALL_NOTICE: &str = "我正在通过 clawBot 处理复杂任务，可能需要几秒钟。";

/// Heading of the system-prompt section (so the prompt builder can find or replace it).
pub(crate) const SECTION_HEADING: &str = "## clawbot_router（远程 clawBot / OpenClaw）";

/// The system-prompt section included when `clawbot_router` is visible (seed 000 §4).
pub fn system_prompt_section() -> String {
    format!(
        "{SECTION_HEADING}\n\
`clawbot_router` 把任务交给远程 clawBot / OpenClaw 多 Agent 处理。它只在远端环境工作（日志、远端文档、SaaS、消息通道），\
不会直接或间接操作当前用户的电脑；它的输出只是文本，绝不会在本机被执行。\n\
\n\
何时调用：\n\
- 跨多天/多文件的日志总结（例：「帮我总结最近的日志」「看下最近几天错误日志的共性」）；\n\
- 复杂运维/告警分析（例：「根据最近告警帮我归纳三条主要风险」）；\n\
- 需要远程系统信息、SaaS 服务数据，而本地 tools 没有对应能力。\n\
\n\
何时不调用：\n\
- 普通问答、解释概念、写代码等你自己就能完成的任务；\n\
- 只需本机操作即可完成的任务（打开应用、调音量、打开网站等）——优先使用本地系统工具。\n\
\n\
调用流程：\n\
1. 先判断本地 tools 能否完成；能则优先使用本地工具。\n\
2. 本地 tools 不足时，先对用户说：「{PRE_CALL_NOTICE}」\n\
3. 然后调用 `clawbot_router`，传入合适的 `agent`（如 \"ops\"，可省略以使用默认 Agent）和 `message`（自然语言任务描述）；\
只读分析用默认的 `mode: \"read-only\"`，只有用户明确要求在远端执行写操作（如发送告警消息）时才用 `mode: \"write\"`。\n\
4. 工具返回 `content` 后，阅读其中的自然语言结果和错误信息（如 `memory read failed`、`browser failed`、`Unknown channel`、超时说明），\
用用户能理解的语言总结并回答；不要把原始输出整段复述给用户。\n"
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn section_names_the_notice_and_the_rules() {
        let s = system_prompt_section();
        assert!(s.starts_with(SECTION_HEADING));
        assert!(s.contains(PRE_CALL_NOTICE));
        assert!(s.contains("优先使用本地"));
        assert!(s.contains("何时不调用"));
        assert!(s.contains("总结"));
    }
}
