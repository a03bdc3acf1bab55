//! `system_volume_control` (seed 000 §1): the default output's volume through `pactl`
//! (PulseAudio / PipeWire), else `amixer` (ALSA, `Master`).

use std::path::Path;
use std::time::Duration;

use serde_json::json;

use super::system_env::{SystemEnv, run_helper};
use crate::tool::params::{ReadOptions, read_integer, read_string};
use crate::tool::{BoxFuture, Tool, ToolCall, ToolError, ToolResult, ToolSpec};

const HELPER_TIMEOUT: Duration = Duration::from_secs(5);
pub(crate) const DEFAULT_STEP: i64 = 10;
const SINK: &str = "@DEFAULT_SINK@";

/// What to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VolumeAction {
    Get,
    Set(u8),
    Up(u8),
    Down(u8),
    Mute,
    Unmute,
    Toggle,
}

/// The state after the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VolumeState {
    pub percent: u32,
    pub muted: bool,
}

pub struct VolumeTool {
    spec: ToolSpec,
    env: SystemEnv,
}

/// The first `NN%` in a helper's output.
pub(crate) fn parse_percent(text: &str) -> Option<u32> {
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'%' {
            let start = bytes[..i]
                .iter()
                .rposition(|c| !c.is_ascii_digit())
                .map(|p| p + 1)
                .unwrap_or(0);
            if start < i {
                return text[start..i].parse().ok();
            }
        }
    }
    None
}

async fn helper_output(program: &Path, args: &[&str]) -> Result<String, String> {
    let outcome = run_helper(program, args, HELPER_TIMEOUT).await?;
    let text = outcome.output.combined_text();
    if outcome.success() {
        Ok(text)
    } else {
        Err(format!(
            "{} {}: {} ({})",
            program.display(),
            args.join(" "),
            text.trim(),
            outcome.summary()
        ))
    }
}

async fn with_pactl(pactl: &Path, action: VolumeAction) -> Result<VolumeState, String> {
    let current = |out: String| {
        parse_percent(&out)
            .ok_or_else(|| format!("cannot read a volume from pactl output: {}", out.trim()))
    };
    match action {
        VolumeAction::Get => {}
        VolumeAction::Set(level) => {
            helper_output(pactl, &["set-sink-volume", SINK, &format!("{level}%")]).await?;
        }
        VolumeAction::Up(step) | VolumeAction::Down(step) => {
            let now = current(helper_output(pactl, &["get-sink-volume", SINK]).await?)? as i64;
            let delta = if matches!(action, VolumeAction::Up(_)) {
                step as i64
            } else {
                -(step as i64)
            };
            // pactl allows more than 100%; the tool's range is 0-100.
            let target = (now + delta).clamp(0, 100);
            helper_output(pactl, &["set-sink-volume", SINK, &format!("{target}%")]).await?;
        }
        VolumeAction::Mute => {
            helper_output(pactl, &["set-sink-mute", SINK, "1"]).await?;
        }
        VolumeAction::Unmute => {
            helper_output(pactl, &["set-sink-mute", SINK, "0"]).await?;
        }
        VolumeAction::Toggle => {
            helper_output(pactl, &["set-sink-mute", SINK, "toggle"]).await?;
        }
    }
    let percent = current(helper_output(pactl, &["get-sink-volume", SINK]).await?)?;
    let mute = helper_output(pactl, &["get-sink-mute", SINK]).await?;
    Ok(VolumeState {
        percent,
        muted: mute.to_ascii_lowercase().contains("yes"),
    })
}

async fn with_amixer(amixer: &Path, action: VolumeAction) -> Result<VolumeState, String> {
    let out = match action {
        VolumeAction::Get => helper_output(amixer, &["-M", "get", "Master"]).await?,
        VolumeAction::Set(level) => {
            helper_output(amixer, &["-M", "set", "Master", &format!("{level}%")]).await?
        }
        VolumeAction::Up(step) => {
            helper_output(amixer, &["-M", "set", "Master", &format!("{step}%+")]).await?
        }
        VolumeAction::Down(step) => {
            helper_output(amixer, &["-M", "set", "Master", &format!("{step}%-")]).await?
        }
        VolumeAction::Mute => helper_output(amixer, &["-M", "set", "Master", "mute"]).await?,
        VolumeAction::Unmute => helper_output(amixer, &["-M", "set", "Master", "unmute"]).await?,
        VolumeAction::Toggle => helper_output(amixer, &["-M", "set", "Master", "toggle"]).await?,
    };
    let percent = parse_percent(&out)
        .ok_or_else(|| format!("cannot read a volume from amixer output: {}", out.trim()))?;
    Ok(VolumeState {
        percent,
        muted: out.contains("[off]"),
    })
}

fn parse_action(params: &serde_json::Value) -> Result<VolumeAction, ToolError> {
    let action = read_string(params, "action", ReadOptions::required())?
        .unwrap_or_default()
        .to_ascii_lowercase();
    let percent = |key: &str, default: Option<i64>| -> Result<u8, ToolError> {
        let value = read_integer(params, key, default.is_none())?
            .or(default)
            .unwrap_or(0);
        if !(0..=100).contains(&value) {
            return Err(ToolError::input(format!(
                "{key} must be between 0 and 100, got {value}"
            )));
        }
        Ok(value as u8)
    };
    Ok(match action.as_str() {
        "get" => VolumeAction::Get,
        "set" => VolumeAction::Set(percent("level", None)?),
        "up" => VolumeAction::Up(percent("step", Some(DEFAULT_STEP))?),
        "down" => VolumeAction::Down(percent("step", Some(DEFAULT_STEP))?),
        "mute" => VolumeAction::Mute,
        "unmute" => VolumeAction::Unmute,
        "toggle" => VolumeAction::Toggle,
        other => {
            return Err(ToolError::input(format!(
                "Unknown action {other}: use get, set, up, down, mute, unmute or toggle"
            )));
        }
    })
}

impl VolumeTool {
    pub fn new(spec: ToolSpec, env: SystemEnv) -> Self {
        VolumeTool { spec, env }
    }

    async fn run(&self, call: ToolCall) -> Result<ToolResult, ToolError> {
        let action = parse_action(&call.params)?;
        let pactl = self.env.find_program("pactl");
        let amixer = self.env.find_program("amixer");
        let mut failures = Vec::new();
        if let Some(pactl) = &pactl {
            match with_pactl(pactl, action).await {
                Ok(state) => return Ok(state_result(state, "pactl")),
                // No sound server running: ALSA may still work.
                Err(e) => failures.push(e),
            }
        }
        if let Some(amixer) = &amixer {
            match with_amixer(amixer, action).await {
                Ok(state) => return Ok(state_result(state, "amixer")),
                Err(e) => failures.push(e),
            }
        }
        if pactl.is_none() && amixer.is_none() {
            return Err(ToolError::failed(
                "system_volume_control needs pactl (PulseAudio/PipeWire, package pulseaudio-utils) or amixer (ALSA, package alsa-utils); neither was found on PATH",
            ));
        }
        Err(ToolError::failed(format!(
            "Changing the volume failed: {}",
            failures.join("; ")
        )))
    }
}

fn state_result(state: VolumeState, backend: &str) -> ToolResult {
    let muted = if state.muted { "muted" } else { "not muted" };
    ToolResult::text(
        format!("Volume {}% ({muted})", state.percent),
        json!({"status": "completed", "volume": state.percent, "muted": state.muted, "backend": backend}),
    )
}

impl Tool for VolumeTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }
    fn execute(&self, call: ToolCall) -> BoxFuture<'_, Result<ToolResult, ToolError>> {
        Box::pin(self.run(call))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn percent_parsing_handles_pactl_and_amixer() {
        assert_eq!(
            parse_percent(
                "Volume: front-left: 42597 /  65% / -11.23 dB,   front-right: 42597 /  65%"
            ),
            Some(65)
        );
        assert_eq!(
            parse_percent("  Front Left: Playback 39321 [60%] [on]"),
            Some(60)
        );
        assert_eq!(parse_percent("no numbers"), None);
    }

    #[test]
    fn actions_are_checked() {
        assert_eq!(
            parse_action(&json!({"action": "set", "level": 30})).unwrap(),
            VolumeAction::Set(30)
        );
        assert_eq!(
            parse_action(&json!({"action": "UP"})).unwrap(),
            VolumeAction::Up(10)
        );
        assert!(
            parse_action(&json!({"action": "set"}))
                .unwrap_err()
                .to_string()
                .contains("level required")
        );
        assert!(parse_action(&json!({"action": "set", "level": 130})).is_err());
        assert!(parse_action(&json!({"action": "louder"})).is_err());
    }
}
