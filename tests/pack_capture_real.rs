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

/// Captures the release `bin` belongs to and compares with the shipped pack `series`.
fn check_release(variable: &str, series: &str) {
    let Some(bin) = std::env::var(variable)
        .ok()
        .filter(|b| Path::new(b).is_file())
    else {
        eprintln!(
            "SKIPPED (no installed release for the {series} pack): set {variable} to an \
             installed release's bin/openclaw (.ci/run does)"
        );
        return;
    };
    let prefix = Path::new(&bin).parent().and_then(Path::parent).unwrap();
    if !prefix.join("openclaw/node_modules/openclaw/dist").is_dir() {
        eprintln!(
            "SKIPPED: {bin} is not a ../shared/realclaw/setup.sh install (no openclaw/node_modules/openclaw/dist beside it)"
        );
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let shipped_path = assets().join(format!("{series}.json"));
    let out = Command::new("bash")
        .arg(assets().join("capture/capture.sh"))
        .arg(prefix)
        .arg(work.path())
        .arg(&shipped_path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "capture.sh {}: {}\n{}",
        prefix.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let captured: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("pack.json")).unwrap())
            .unwrap();
    let shipped: Value =
        serde_json::from_str(&std::fs::read_to_string(&shipped_path).unwrap()).unwrap();
    assert_eq!(
        captured["version"], series,
        "{bin} is not a {series} release"
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

#[test]
#[ignore = "needs openclaw@2026.8.2 installed (OPENCLAW_BIN_2026_8): .ci/run runs it with --ignored"]
fn the_2026_8_pack_is_what_openclaw_2026_8_2_does() {
    check_release("OPENCLAW_BIN_2026_8", "2026.8");
}

#[test]
#[ignore = "needs the real OpenClaw CLI (OPENCLAW_BIN): .ci/run runs it with --ignored"]
fn the_2026_9_pack_is_what_the_installed_2026_9_release_does() {
    check_release("OPENCLAW_BIN", "2026.9");
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
