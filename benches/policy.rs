//! Full policy resolution with explanations: 1,000 tools, nine layers of 50 patterns each
//! (exact names, `prefix*` wildcards, wildcard denies). Prints the time per resolution and the
//! ratio against a naive baseline measured in the same run: one regex per pattern, tried in
//! turn, no explanation. The baseline is measured twice: compiling its regexes per resolution
//! (as OpenClaw compiles its patterns on every call) and with regexes compiled once up front.
//!
//! Run: `cargo bench --bench policy`

use std::hint::black_box;
use std::time::{Duration, Instant};

use clawdeck::catalog::Registry;
use clawdeck::policy::{self, LayerId, LayerPolicy, RuleEntry, normalize_tool_name};
use clawdeck::tool::{ToolFlags, ToolSource, ToolSpec};
use regex::Regex;
use serde_json::json;

const TOOLS: usize = 1000;
const PATTERNS_PER_LAYER: usize = 50;
const PREFIXES: &[&str] = &[
    "fs", "net", "db", "git", "ci", "mail", "chat", "doc", "img", "vid", "aud", "geo", "pay",
    "crm", "log", "mon", "k8s", "vm", "dns", "ssh",
];

fn tool_name(i: usize) -> String {
    format!("{}_op_{i}", PREFIXES[i % PREFIXES.len()])
}

fn registry() -> Registry {
    let specs = (0..TOOLS)
        .map(|i| ToolSpec {
            name: tool_name(i),
            label: tool_name(i),
            description: String::new(),
            summary: String::new(),
            emoji: "🧩".into(),
            parameters: json!({"type": "object", "properties": {}}),
            source: if i % 10 == 0 {
                ToolSource::Plugin {
                    plugin_id: "bench".into(),
                }
            } else {
                ToolSource::Core
            },
            flags: ToolFlags::default(),
        })
        .collect();
    Registry::from_specs(specs)
}

/// Layer `l`: allow = 30 exact names + 15 `prefix*` wildcards + `*_op_*1`-style entries;
/// deny = exact names and wildcard denies. Deterministic, so every run measures the same work.
fn layers() -> Vec<LayerPolicy> {
    let mut out = Vec::new();
    for (l, id) in LayerId::ALL[1..].iter().enumerate() {
        let mut allow = Vec::new();
        for k in 0..30 {
            allow.push(tool_name((l * 131 + k * 37) % TOOLS));
        }
        for k in 0..15 {
            allow.push(format!("{}*", PREFIXES[(l + k) % PREFIXES.len()]));
        }
        let mut deny = Vec::new();
        for k in 0..(PATTERNS_PER_LAYER - allow.len()) {
            deny.push(match k % 3 {
                0 => tool_name((l * 17 + k * 101) % TOOLS),
                1 => format!("*_op_{}{}", (l + k) % 10, k % 7),
                _ => format!("{}_*_9{}", PREFIXES[(l * 3 + k) % PREFIXES.len()], k % 10),
            });
        }
        let entries = |list: &[String], kind: &str| {
            list.iter()
                .enumerate()
                .map(|(i, p)| RuleEntry::configured(p.clone(), format!("bench.{kind}[{i}]")))
                .collect()
        };
        out.push(LayerPolicy {
            id: *id,
            label: id.id().to_string(),
            present: true,
            source_path: None,
            allow: Some(entries(&allow, "allow")),
            allow_path: Some("bench.allow".into()),
            deny: entries(&deny, "deny"),
            note: String::new(),
            miss_reason: None,
        });
    }
    out
}

/// The naive baseline: each pattern becomes an anchored regex (`*` → `.*`, the rest escaped).
struct NaiveLayer {
    allow: Option<Vec<Regex>>,
    deny: Vec<Regex>,
}

fn naive_compile(layers: &[LayerPolicy]) -> Vec<NaiveLayer> {
    let compile = |pattern: &str| {
        let p = normalize_tool_name(pattern);
        let body = p
            .split('*')
            .map(regex::escape)
            .collect::<Vec<_>>()
            .join(".*");
        Regex::new(&format!("^{body}$")).ok()
    };
    layers
        .iter()
        .map(|l| NaiveLayer {
            allow: l
                .allow
                .as_ref()
                .map(|a| a.iter().filter_map(|e| compile(&e.pattern)).collect()),
            deny: l.deny.iter().filter_map(|e| compile(&e.pattern)).collect(),
        })
        .collect()
}

fn naive_filter<'a>(names: &'a [String], layers: &[NaiveLayer]) -> Vec<&'a str> {
    let mut current: Vec<&str> = names.iter().map(String::as_str).collect();
    for layer in layers {
        current.retain(|name| {
            if layer.deny.iter().any(|r| r.is_match(name)) {
                return false;
            }
            match &layer.allow {
                None => true,
                Some(allow) => allow.is_empty() || allow.iter().any(|r| r.is_match(name)),
            }
        });
    }
    current
}

fn time_per_iteration(iterations: u32, mut f: impl FnMut()) -> Duration {
    for _ in 0..3 {
        f(); // warm-up
    }
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    start.elapsed() / iterations
}

fn main() {
    let registry = registry();
    let layers = layers();
    let names: Vec<String> = registry.tools.iter().map(|t| t.name.clone()).collect();

    // Both sides must agree on the final list before their speed means anything.
    let resolution = policy::resolve_layers(layers.clone(), &registry, &mut Vec::new());
    let ours: Vec<&str> = resolution.visible_names();
    let naive_layers = naive_compile(&layers);
    let theirs = naive_filter(&names, &naive_layers);
    assert_eq!(ours, theirs, "clawdeck and the naive baseline disagree");

    let iterations = 200;
    let full = time_per_iteration(iterations, || {
        let mut warnings = Vec::new();
        black_box(policy::resolve_layers(
            black_box(layers.clone()),
            &registry,
            &mut warnings,
        ));
    });
    let naive_with_compile = time_per_iteration(iterations / 4, || {
        let compiled = naive_compile(black_box(&layers));
        black_box(naive_filter(&names, &compiled));
    });
    let naive_matching_only = time_per_iteration(iterations, || {
        black_box(naive_filter(black_box(&names), &naive_layers));
    });

    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "policy resolution: {TOOLS} tools, 9 layers x {PATTERNS_PER_LAYER} patterns, {} visible",
        ours.len()
    );
    println!(
        "  clawdeck (compile + resolve + explain every tool x layer): {:>9.1} µs/resolution",
        us(full)
    );
    println!(
        "  naive regex per pattern, compiled per resolution:          {:>9.1} µs/resolution  ({:.1}x slower than clawdeck)",
        us(naive_with_compile),
        naive_with_compile.as_secs_f64() / full.as_secs_f64()
    );
    println!(
        "  naive regex per pattern, regexes precompiled, no explain:  {:>9.1} µs/resolution  ({:.1}x slower than clawdeck)",
        us(naive_matching_only),
        naive_matching_only.as_secs_f64() / full.as_secs_f64()
    );
    println!("  target: < 1000 µs per full resolution and >= 5x the naive baseline");
}
