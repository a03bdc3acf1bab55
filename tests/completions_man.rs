//! `clawdeck completions SHELL` and `clawdeck man` come from the clap definition the binary
//! parses with: every shell's script names every subcommand, bash really loads the script and
//! completes from it, and the man page is valid roff (`man -l` renders it without a warning)
//! that names every subcommand.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};

use clap::{CommandFactory, ValueEnum};
use clap_complete::Shell;

fn clawdeck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clawdeck"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = clawdeck(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every subcommand (parents too) as its path, without clap's `help`.
fn subcommands() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            walk(sub, &path, out);
        }
    }
    let mut out = Vec::new();
    walk(&clawdeck::cli::Cli::command(), &[], &mut out);
    out
}

/// Whether `word` stands in `text` as a word of its own (not inside `gateway-status` or `log_x`).
fn has_word(text: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

#[test]
fn every_shells_script_names_every_subcommand() {
    let paths = subcommands();
    assert!(paths.iter().any(|p| p == &["paths"]), "{paths:?}");
    for shell in Shell::value_variants() {
        let name = shell.to_possible_value().unwrap().get_name().to_string();
        let script = stdout_of(&["completions", &name]);
        assert!(script.len() > 1000, "{name}: {} bytes", script.len());
        for path in &paths {
            let leaf = path.last().unwrap();
            assert!(has_word(&script, leaf), "{name}: no {path:?}");
        }
    }
}

#[test]
fn a_shell_clawdeck_does_not_know_is_bad_usage() {
    let out = clawdeck(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// Runs `script` in a bash that has loaded clawdeck's completions; its stdout.
fn in_bash_with_completions(script: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clawdeck.bash");
    std::fs::write(&file, stdout_of(&["completions", "bash"])).unwrap();
    let out = Command::new("bash")
        .arg("--norc")
        .arg("--noprofile")
        .arg("-c")
        .arg(format!("source {} || exit 9\n{script}", file.display()))
        .output()
        .expect("bash is installed");
    assert!(
        out.status.success(),
        "{script}: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// What bash offers after `line` (the cursor at its end).
fn completions_after(line: &str) -> Vec<String> {
    let script = format!(
        "COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}\n\
         read -ra COMP_WORDS <<< \"$COMP_LINE\"\n\
         [[ $COMP_LINE == *' ' ]] && COMP_WORDS+=('')\n\
         COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n\
         _clawdeck clawdeck \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\""
    );
    in_bash_with_completions(&script)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn bash_loads_the_script_and_completes_commands_from_it() {
    let registered = in_bash_with_completions("complete -p clawdeck");
    assert!(
        registered.contains("-F _clawdeck") && registered.trim_end().ends_with(" clawdeck"),
        "{registered}"
    );
    assert_eq!(completions_after("clawdeck pa"), ["paths"]);
    let mut gateway = completions_after("clawdeck gateway s");
    gateway.sort();
    assert_eq!(gateway, ["send", "sessions", "status", "steer"]);
    let shells = completions_after("clawdeck completions ");
    for shell in ["bash", "zsh", "fish", "powershell"] {
        assert!(shells.iter().any(|s| s == shell), "{shells:?}");
    }
}

fn man_installed() -> bool {
    Command::new("man").arg("--version").output().is_ok()
}

/// The page rendered by `man -l` (warnings on: any is a failure), or None without `man`.
fn rendered(page: &str) -> Option<String> {
    if !man_installed() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.1");
    std::fs::write(&file, page).unwrap();
    let out = Command::new("man")
        .args(["--warnings", "-E", "UTF-8", "-l"])
        .arg(&file)
        .env("MANWIDTH", "200")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "man -l: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "man -l warned: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // groff's overstrike bold (`c\bc`) and underline (`_\bc`) made plain.
    let text = String::from_utf8(out.stdout).unwrap();
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    Some(plain)
}

#[test]
fn the_man_page_parses_and_names_every_subcommand() {
    let page = stdout_of(&["man"]);
    let version = stdout_of(&["--version"]);
    let version = version.trim().strip_prefix("clawdeck ").unwrap();
    assert!(
        page.lines()
            .any(|l| l.starts_with(".TH clawdeck 1 ") && l.contains(version)),
        "no .TH header naming {version}"
    );
    let top: Vec<String> = subcommands()
        .into_iter()
        .filter(|p| p.len() == 1)
        .map(|mut p| p.remove(0))
        .collect();
    // In roff a `-` is written `\-`.
    for name in &top {
        assert!(
            page.contains(&format!("clawdeck\\-{name}")),
            "roff: no {name}"
        );
    }
    if let Some(text) = rendered(&page) {
        assert!(text.contains("NAME"), "{text}");
        for name in &top {
            assert!(
                text.contains(&format!("clawdeck-{name}(1)")),
                "man: no {name}"
            );
        }
    }
}

#[test]
fn a_subcommands_page_has_its_flags_examples_and_subcommands() {
    let page = stdout_of(&["man", "gateway"]);
    assert!(page.contains(".TH clawdeck-gateway 1 "), "{page}");
    let text = rendered(&page).unwrap_or(page);
    for sub in ["status", "sessions", "watch", "effective"] {
        assert!(
            text.contains(&format!("clawdeck-gateway-{sub}"))
                || text.contains(&format!("clawdeck\\-gateway\\-{sub}")),
            "no {sub}"
        );
    }
    let status = stdout_of(&["man", "gateway", "status"]);
    let text = rendered(&status).unwrap_or(status);
    assert!(
        text.contains("--json") || text.contains("\\-\\-json"),
        "{text}"
    );
    assert!(text.contains("$ clawdeck gateway status"), "{text}");
    assert!(text.contains("Exit status"), "{text}");
}

#[test]
fn the_page_of_a_command_that_does_not_exist_is_bad_usage() {
    let out = clawdeck(&["man", "gateway", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no command `gateway nope`"));
}
