//! The exact texts the router returns (seed 000 §3.1, §3.5), in one place.

/// Blank or missing message (seed 000 §3.1): nothing is spawned.
pub const EMPTY_MESSAGE: &str = "[clawbot_router] 没有任务描述（message 为空），未调用 OpenClaw。";

/// No `agent` in the call and neither `router.defaultTo` nor `router.defaultAgent` configured.
pub const NO_TARGET: &str = "[clawbot_router] 没有指定 agent，也没有配置默认 phone（clawdeck.json5 的 router.defaultTo）或默认 Agent（router.defaultAgent），未调用 OpenClaw。";

/// Seed 000 §3.5 (1): the CLI could not be started.
pub fn spawn_failed(err: &str) -> String {
    format!("[clawbot_router] 无法启动远程 Agent（openclaw CLI 启动失败：{err}）。")
}

/// Seed 000 §5 (d): appended when the binary is not found at all.
pub const INSTALL_HINT: &str = "[clawbot_router] 未找到 openclaw 命令。安装方法：先安装 Node.js ≥ 24.16，再运行 `npm install -g openclaw`；\
或在 clawdeck.json5 的 router.bin（或环境变量 OPENCLAW_BIN）中指定 openclaw 的完整路径。";

/// Seed 000 §3.5 (2): appended after the raw output when the run timed out.
pub fn timed_out(seconds: u64) -> String {
    format!("[clawbot_router] 远程 clawBot 处理超时（超过 {seconds} 秒未完成），本次结果已中止。")
}

/// The HTTP transport could not reach the gateway or got an error status (same shape as §3.5 (1)).
pub(crate) fn gateway_failed(err: &str) -> String {
    format!("[clawbot_router] 无法连接远程 Agent（OpenClaw gateway 请求失败：{err}）。")
}

/// HTTP transport chosen but no gateway configured.
pub const NO_GATEWAY: &str = "[clawbot_router] 没有配置 OpenClaw gateway（clawdeck.json5 的 router.gateway.url / token，或环境变量 OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN），无法使用 http 通道。";

/// A gateway transport (`http` or `gateway`) chosen but no gateway configured.
pub(crate) fn no_gateway(channel: &str) -> String {
    NO_GATEWAY.replace("http 通道", &format!("{channel} 通道"))
}

/// An operator (console, Ctrl-C) or the caller stopped the run.
pub const KILLED: &str = "[clawbot_router] 本次远程调用已被手动终止，结果不完整。";

/// The remote run ended with a non-zero exit status; its own messages are in the raw output.
pub(crate) fn exited_with(code: i32) -> String {
    format!("[clawbot_router] openclaw 以退出码 {code} 结束。")
}

/// The remote run was ended by a signal it did not get from us.
pub fn killed_by_signal(signal: &str) -> String {
    format!("[clawbot_router] openclaw 被信号 {signal} 终止。")
}

/// A platform tool that only exists inside OpenClaw, with no gateway configured.
pub fn openclaw_only(tool: &str) -> String {
    format!(
        "[clawdeck] `{tool}` 只能在 OpenClaw 内部运行（它依赖 OpenClaw 的会话、通道或记忆）。\
配置 OpenClaw gateway（clawdeck.json5 的 router.gateway.url / token，或环境变量 OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN）后，clawdeck 会通过 `POST /tools/invoke` 调用它。"
    )
}

/// The same texts for the operator (`route`'s stderr, the console's notes), in English. The
/// model keeps the seed's texts above, byte for byte; the operator reads these beside them.
pub mod operator {
    /// Beside [`super::EMPTY_MESSAGE`].
    pub const EMPTY_MESSAGE: &str = "no task given (the message is empty); OpenClaw was not called";

    /// Beside [`super::NO_TARGET`].
    pub const NO_TARGET: &str = "no agent given and no default configured (clawdeck.json5 router.defaultTo for a phone, or router.defaultAgent); OpenClaw was not called";

    /// Beside [`super::spawn_failed`].
    pub(crate) fn spawn_failed(err: &str) -> String {
        format!("the remote agent could not be started (the openclaw CLI failed to start: {err})")
    }

    /// Beside [`super::INSTALL_HINT`].
    pub const INSTALL_HINT: &str = "the openclaw command was not found. Install Node.js ≥ 24.16, then run `npm install -g openclaw`; or give openclaw's full path in clawdeck.json5 router.bin (or the OPENCLAW_BIN environment variable)";

    /// Beside [`super::spawn_failed`] when the `--message-file` temp file cannot be written.
    pub(crate) fn message_file_failed(err: &str) -> String {
        spawn_failed(&format!("cannot write the --message-file temp file: {err}"))
    }

    /// Beside [`super::timed_out`].
    pub(crate) fn timed_out(seconds: u64) -> String {
        format!(
            "the remote clawBot did not finish within {seconds} s; the run was stopped and its result is cut short"
        )
    }

    /// Beside [`super::gateway_failed`].
    pub(crate) fn gateway_failed(err: &str) -> String {
        format!(
            "the remote agent could not be reached (the OpenClaw gateway request failed: {err})"
        )
    }

    /// Beside [`super::no_gateway`].
    pub(crate) fn no_gateway(channel: &str) -> String {
        format!(
            "no OpenClaw gateway configured (clawdeck.json5 router.gateway.url / token, or OPENCLAW_GATEWAY_URL / OPENCLAW_GATEWAY_TOKEN), so the {channel} transport cannot be used"
        )
    }

    /// Beside [`super::KILLED`].
    pub const KILLED: &str = "the remote run was stopped by hand; its result is incomplete";

    /// Beside [`super::exited_with`] (also when the remote side said why in its own output).
    pub(crate) fn exited_with(code: i32) -> String {
        format!("openclaw ended with exit code {code}")
    }

    /// Beside [`super::killed_by_signal`].
    pub(crate) fn killed_by_signal(signal: &str) -> String {
        format!("openclaw was ended by signal {signal}, which clawdeck did not send")
    }
}
