//! The shipped packs against the releases they were captured from: assets/openclaw/capture/
//! capture.sh is run against each installed release ($OPENCLAW_BIN for 2026.9.6,
//! $OPENCLAW_BIN_2026_8 for 2026.8.2; .ci/run installs both) and what it captures is compared
//! with the shipped pack of that release's series, field by field. A difference means the pack
//! no longer says what the release does (or the capture reads it differently): capture the pack
//! again (docs/versions.md, "Capturing a pack for a new release").

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

/// What the capture reads from the release itself (runs and dist/), as `(label, value)`.
fn captured_facts(pack: &Value) -> Vec<(String, Value)> {
    let mut facts = Vec::new();
    for tool in pack["tools"].as_array().into_iter().flatten() {
        let name = tool["name"].as_str().unwrap_or_default();
        for field in [
            "description",
            "parameters",
            "promptSummary",
            "inDefaultRun",
            "section",
            "profiles",
            "includeInOpenClawGroup",
            "source",
        ] {
            facts.push((format!("tools.{name}.{field}"), tool[field].clone()));
        }
    }
    // The tools of the bundled plugins that are off by default, captured from a run that turns
    // them all on.
    for (plugin, tools) in pack["pluginsOffByDefault"]
        .as_object()
        .into_iter()
        .flatten()
    {
        for tool in tools.as_array().into_iter().flatten() {
            let name = tool["name"].as_str().unwrap_or_default();
            for field in ["description", "parameters", "optional", "source"] {
                facts.push((
                    format!("pluginsOffByDefault.{plugin}.{name}.{field}"),
                    tool[field].clone(),
                ));
            }
        }
    }
    // Owner-only tools are compared as the list the loader reads (a tool's own flag adds to it).
    for key in [
        "groups",
        "profiles",
        "profileValues",
        "nonOwnerDeny",
        "gatewayHttpDeny",
        "exec",
        "mediaCredentials",
        "mediaCredentialDescriptions",
        "visionModelTools",
        "clientCapabilities",
        "automationManagement",
        "swarm",
        "providerCredentials",
        "providerAuthAliases",
        "videoAudioReferences",
        "codeMode",
        "catalogModelInputs",
        "modelIdNormalization",
        "claudeImageRule",
        "subagentEnvelope",
        "channelVariants",
        "xaiTools",
        "hostTools",
        "heartbeatTurn",
        "scheduledTurn",
    ] {
        facts.push((key.to_string(), pack[key].clone()));
    }
    for key in ["alwaysDeny", "leafDeny", "defaultMaxSpawnDepth"] {
        facts.push((format!("subagent.{key}"), pack["subagent"][key].clone()));
    }
    for key in ["defaultAllow", "defaultDeny"] {
        facts.push((format!("sandbox.{key}"), pack["sandbox"][key].clone()));
    }
    facts.push((
        "toolingPromptRule.summaryOrder".to_string(),
        pack["toolingPromptRule"]["summaryOrder"].clone(),
    ));
    for key in [
        "defaultEnabled",
        "directTools",
        "directOnlyTools",
        "directoryGuidance",
    ] {
        facts.push((format!("toolSearch.{key}"), pack["toolSearch"][key].clone()));
    }
    let patterns = match &pack["pluginAllowlistPatterns"] {
        Value::Null => json!(true),
        v => v.clone(),
    };
    facts.push(("pluginAllowlistPatterns".to_string(), patterns));
    facts
}

/// The facts on which `shipped` and `captured` differ, each with both values (cut short).
fn differences(shipped: &Value, captured: &Value) -> Vec<String> {
    let short = |v: &Value| {
        let text = v.to_string();
        if text.chars().count() > 160 {
            format!("{}...", text.chars().take(157).collect::<String>())
        } else {
            text
        }
    };
    let shipped: std::collections::BTreeMap<String, Value> =
        captured_facts(shipped).into_iter().collect();
    let captured: std::collections::BTreeMap<String, Value> =
        captured_facts(captured).into_iter().collect();
    let mut out = Vec::new();
    for key in shipped.keys().chain(captured.keys()) {
        let (a, b) = (
            shipped.get(key).unwrap_or(&Value::Null),
            captured.get(key).unwrap_or(&Value::Null),
        );
        if a != b
            && !out
                .iter()
                .any(|o: &String| o.starts_with(&format!("{key}:")))
        {
            out.push(format!(
                "{key}: shipped {}, captured {}",
                short(a),
                short(b)
            ));
        }
    }
    out
}

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/openclaw")
}

/// Which of a capture's runs a check takes (capture.sh's CAPTURE_PART): the 2026.9 pack's
/// channel plugins are checked on days of their own.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    All,
    /// Every run but the channel plugins'; the pack's other facts.
    Core,
    /// The channel plugins' runs: their forms (`WORK/channel_forms.json`).
    Channels,
}

/// The installed release `variable` names, as the prefix ../shared/realclaw/setup.sh made, or
/// why there is none.
fn installed_prefix(variable: &str, series: &str) -> Option<PathBuf> {
    let Some(bin) = std::env::var(variable)
        .ok()
        .filter(|b| Path::new(b).is_file())
    else {
        eprintln!(
            "SKIPPED (no installed release for the {series} pack): set {variable} to an \
             installed release's bin/openclaw (.ci/run does)"
        );
        return None;
    };
    let prefix = Path::new(&bin).parent().and_then(Path::parent).unwrap();
    if !prefix.join("openclaw/node_modules/openclaw/dist").is_dir() {
        eprintln!(
            "SKIPPED: {bin} is not a ../shared/realclaw/setup.sh install (no openclaw/node_modules/openclaw/dist beside it)"
        );
        return None;
    }
    Some(prefix.to_path_buf())
}

/// Runs capture.sh's `part` against the release in `prefix` into `work`.
fn capture(prefix: &Path, work: &Path, shipped_path: &Path, part: Part) {
    let part_name = match part {
        Part::All => "all",
        Part::Core => "core",
        Part::Channels => "channels",
    };
    let mut command = Command::new("bash");
    command
        .arg(assets().join("capture/capture.sh"))
        .arg(prefix)
        .arg(work)
        .arg(shipped_path)
        .env("CAPTURE_PART", part_name)
        .env_remove("CAPTURE_RUNS");
    // CAPTURE_CHANNELS (.ci/run's half of the channel plugins) narrows the channels part only.
    if part != Part::Channels {
        command.env_remove("CAPTURE_CHANNELS");
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "capture.sh ({part_name}) {}: {}\n{}",
        prefix.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Captures the release `variable` names and compares with the shipped pack `series`.
fn check_release(variable: &str, series: &str, part: Part) {
    let Some(prefix) = installed_prefix(variable, series) else {
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let shipped_path = assets().join(format!("{series}.json"));
    capture(&prefix, work.path(), &shipped_path, part);
    let shipped: Value =
        serde_json::from_str(&std::fs::read_to_string(&shipped_path).unwrap()).unwrap();
    if part == Part::Channels {
        let captured: Value = serde_json::from_str(
            &std::fs::read_to_string(work.path().join("channel_forms.json")).unwrap(),
        )
        .unwrap();
        let found = channel_form_differences(&shipped, &captured);
        assert!(
            found.is_empty(),
            "assets/openclaw/{series}.json's channel plugin forms differ from a capture of {} ({}):\n{}",
            prefix.display(),
            found.len(),
            found.join("\n")
        );
        eprintln!(
            "assets/openclaw/{series}.json: the forms of {} agree with {}",
            captured["channels"],
            prefix.display()
        );
        return;
    }
    let captured: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("pack.json")).unwrap())
            .unwrap();
    assert_eq!(
        captured["version"],
        series,
        "{} is not a {series} release",
        prefix.display()
    );
    let found = differences(&shipped, &captured);
    assert!(
        found.is_empty(),
        "assets/openclaw/{series}.json differs from a capture of {} ({} facts):\n{}",
        captured["capturedFrom"],
        found.len(),
        found.join("\n")
    );
    eprintln!(
        "assets/openclaw/{series}.json: every captured fact agrees with {} ({} facts)",
        captured["capturedFrom"],
        captured_facts(&captured).len()
    );
}

/// The tools whose forms for the captured channels (`captured`: channel_forms.py's output)
/// differ from the shipped pack's forms for them (its channelVariants naming those channels,
/// in its order).
fn channel_form_differences(shipped: &Value, captured: &Value) -> Vec<String> {
    let channels: Vec<&str> = captured["channels"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let ours = |v: &&Value| {
        v["whenChannel"]
            .as_str()
            .is_some_and(|c| channels.contains(&c))
    };
    let mut tools = std::collections::BTreeMap::<&str, (Vec<&Value>, Vec<&Value>)>::new();
    for (tool, variants) in shipped["channelVariants"].as_object().into_iter().flatten() {
        let variants = variants.as_array().into_iter().flatten().filter(ours);
        tools.entry(tool).or_default().0.extend(variants);
    }
    for (tool, variants) in captured["forms"].as_object().into_iter().flatten() {
        let variants = variants.as_array().into_iter().flatten();
        tools.entry(tool).or_default().1.extend(variants);
    }
    let label = |vs: &[&Value]| {
        let whens: Vec<String> = vs
            .iter()
            .map(|v| {
                let channel = v["whenChannel"].as_str().unwrap_or("?");
                match v["whenTurnChannel"].as_str() {
                    Some(turn) => format!("{channel} (a turn over {turn})"),
                    None => channel.to_string(),
                }
            })
            .collect();
        format!("[{}]", whens.join(", "))
    };
    tools
        .into_iter()
        .filter(|(_, (shipped, captured))| shipped != captured)
        .map(|(tool, (shipped, captured))| {
            format!(
                "channelVariants.{tool}: shipped {}, captured {}",
                label(&shipped),
                label(&captured)
            )
        })
        .collect()
}

#[test]
#[ignore = "needs openclaw@2026.8.2 installed (OPENCLAW_BIN_2026_8): .ci/run runs it with --ignored"]
fn the_2026_8_pack_is_what_openclaw_2026_8_2_does() {
    check_release("OPENCLAW_BIN_2026_8", "2026.8", Part::All);
}

#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
fn the_2026_9_pack_is_what_the_installed_2026_9_release_does() {
    check_release("OPENCLAW_BIN", "2026.9", Part::Core);
}

/// Every channel plugin's forms, or those `CAPTURE_CHANNELS` names (.ci/run takes them in two
/// halves on different days).
#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
fn the_2026_9_packs_channel_plugin_forms_are_what_the_installed_release_does() {
    check_release("OPENCLAW_BIN", "2026.9", Part::Channels);
}

#[test]
fn a_changed_channel_form_is_a_difference_and_an_equal_one_is_none() {
    let pack: Value =
        serde_json::from_str(&std::fs::read_to_string(assets().join("2026.9.json")).unwrap())
            .unwrap();
    let ours = |v: &Value| v["whenChannel"] == "signal" || v["whenChannel"] == "discord";
    let mut forms = serde_json::Map::new();
    for (tool, variants) in pack["channelVariants"].as_object().unwrap() {
        let kept: Vec<Value> = variants
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| ours(v))
            .cloned()
            .collect();
        if !kept.is_empty() {
            forms.insert(tool.clone(), Value::from(kept));
        }
    }
    let captured = json!({"channels": ["discord", "signal"], "forms": forms});
    assert!(channel_form_differences(&pack, &captured).is_empty());
    let mut changed = captured.clone();
    changed["forms"]["message"][0]["description"] = json!("changed");
    let found = channel_form_differences(&pack, &changed);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("channelVariants.message: shipped ["),
        "{found:?}"
    );
    let mut lost = captured.clone();
    lost["forms"].as_object_mut().unwrap().remove("message");
    assert_eq!(channel_form_differences(&pack, &lost).len(), 1);
}

#[test]
fn a_changed_fact_is_a_difference_and_an_equal_pack_has_none() {
    let pack: Value =
        serde_json::from_str(&std::fs::read_to_string(assets().join("2026.8.json")).unwrap())
            .unwrap();
    assert!(differences(&pack, &pack).is_empty());
    let mut changed = pack.clone();
    changed["subagent"]["defaultMaxSpawnDepth"] = json!(5);
    changed["pluginAllowlistPatterns"] = Value::Null;
    let found = differences(&pack, &changed);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("pluginAllowlistPatterns: shipped false, captured true"));
    assert!(found[1].starts_with("subagent.defaultMaxSpawnDepth: shipped 1, captured 5"));
}

/// The two halves `.ci/run` checks on different days are every channel plugin the capture
/// installs, each once.
#[test]
fn ci_s_two_halves_of_the_channel_plugins_are_all_of_them_once() {
    let forms = std::fs::read_to_string(assets().join("capture/channel_forms.py")).unwrap();
    let list = forms
        .split_once("PLUGIN_CHANNELS = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("channel_forms.py: no PLUGIN_CHANNELS list")
        .0;
    let mut plugins: Vec<&str> = list
        .split(',')
        .map(|c| c.trim().trim_matches('"'))
        .filter(|c| !c.is_empty())
        .collect();
    let ci =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run")).unwrap();
    let mut halves: Vec<&str> = ci
        .lines()
        .filter_map(|line| line.trim().strip_prefix("channel_half=\""))
        .flat_map(|half| half.trim_end_matches('"').split_whitespace())
        .collect();
    assert!(plugins.len() >= 12, "{plugins:?}");
    plugins.sort_unstable();
    halves.sort_unstable();
    assert_eq!(
        halves, plugins,
        ".ci/run's channel_half lines against PLUGIN_CHANNELS"
    );
}
