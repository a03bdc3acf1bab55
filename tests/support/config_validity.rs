//! The config-validity corpus (tests/fixtures/config-validity) and clawdeck's verdict on a case,
//! in the shape `openclaw config validate --json` answers: valid, and the issues' key paths.
//! What the real OpenClaw answered for each case is a recording
//! (tests/recordings/validity/<version>/<case>@<hash of its config>.json).

// A corpus that cannot be read is the test's failure, said by the expect message.
#![allow(clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::recordings::{Shelf, inputs_hash};

/// The recordings' suite name (tests/recordings/validity/<version>/).
pub const SUITE: &str = "validity";

/// Valid or not, and every key path an issue names (sorted, each once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub valid: bool,
    pub paths: Vec<String>,
}

impl Verdict {
    pub fn from_openclaw(answer: &Value) -> Verdict {
        let mut paths: Vec<String> = answer["issues"]
            .as_array()
            .map(|issues| {
                issues
                    .iter()
                    .filter_map(|i| i["path"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        paths.sort();
        paths.dedup();
        Verdict {
            valid: answer["valid"] == Value::Bool(true),
            paths,
        }
    }
}

/// What a recording keeps of `openclaw config validate --json`: valid, the issues' key paths
/// (sorted, each once) and their messages.
pub fn recorded_answer(answer: &Value) -> Value {
    let verdict = Verdict::from_openclaw(answer);
    let messages: Vec<String> = answer["issues"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| {
            format!(
                "{}: {}",
                i["path"].as_str().unwrap_or_default(),
                i["message"].as_str().unwrap_or_default()
            )
        })
        .collect();
    json!({"valid": verdict.valid, "paths": verdict.paths, "messages": messages})
}

pub struct Case {
    pub name: String,
    pub path: PathBuf,
    pub text: String,
}

impl Case {
    /// The hash its recordings are named by: the config's bytes.
    pub fn inputs(&self) -> String {
        inputs_hash(&[("config", self.text.as_bytes())])
    }
}

pub struct Corpus {
    pub cases: Vec<Case>,
    not_modelled: BTreeMap<String, String>,
}

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/config-validity")
}

impl Corpus {
    pub fn load() -> Corpus {
        let dir = corpus_dir();
        let mut cases: Vec<Case> = std::fs::read_dir(&dir)
            .expect("the corpus directory")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json5"))
            .map(|path| Case {
                name: path
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string(),
                text: std::fs::read_to_string(&path).expect("a case"),
                path,
            })
            .collect();
        cases.sort_by(|a, b| a.name.cmp(&b.name));
        let text = std::fs::read_to_string(dir.join("not-modelled.json")).expect("reasons");
        let not_modelled = serde_json::from_str(&text).expect("reasons");
        Corpus {
            cases,
            not_modelled,
        }
    }

    /// What OpenClaw answered for `case` when it was recorded on `shelf` (None: no recording
    /// for its config as it is).
    pub fn recorded(&self, shelf: &Shelf, case: &Case) -> Option<Verdict> {
        let recording = shelf.find(&case.name, &case.inputs())?;
        let paths = recording.answer["paths"]
            .as_array()
            .map(|p| {
                p.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        Some(Verdict {
            valid: recording.answer["valid"] == Value::Bool(true),
            paths,
        })
    }

    /// Why clawdeck does not answer this case as OpenClaw does (None: it does).
    pub fn not_modelled(&self, name: &str) -> Option<&str> {
        self.not_modelled.get(name).map(String::as_str)
    }

    pub fn text(&self, name: &str) -> String {
        self.cases
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.text.clone())
            .unwrap_or_else(|| panic!("no corpus case {name}"))
    }
}

/// clawdeck's verdict on a config text (loaded as the CLI loads a file, under the newest pack,
/// with this machine's installed plugins).
pub fn clawdeck_verdict(text: &str, origin: &str) -> Verdict {
    clawdeck_answer(text, origin).0
}

/// [`clawdeck_verdict`] and, when the answer depends on an OpenClaw install this machine lacks
/// (a plugin slot), clawdeck's note saying it could not check.
pub fn clawdeck_answer(text: &str, origin: &str) -> (Verdict, Option<String>) {
    let loaded = clawdeck_core::config::load_from_str(text, origin).and_then(|mut loaded| {
        clawdeck_core::config::check_installed_plugins(&mut loaded).map(|()| loaded)
    });
    match loaded {
        Ok(loaded) => {
            let unchecked = loaded
                .warnings
                .iter()
                .find(|w| w.contains("could not be checked"))
                .cloned();
            let verdict = Verdict {
                valid: true,
                paths: Vec::new(),
            };
            (verdict, unchecked)
        }
        Err(err) => {
            let mut paths: Vec<String> = std::iter::once(&err)
                .chain(err.further.iter())
                .map(|e| e.key_path.clone().unwrap_or_else(|| "<root>".to_string()))
                .collect();
            paths.sort();
            paths.dedup();
            let verdict = Verdict {
                valid: false,
                paths,
            };
            (verdict, None)
        }
    }
}
