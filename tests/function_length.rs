//! Small functions: no production function in the workspace runs over 100 lines (issue 20,
//! "Names and size"). This scans every crate's `src/` and the binary's `src/` (the
//! `#[cfg(test)]` items, `tests.rs` files and `tests/` dirs left out) and names each `fn` whose
//! body, from the `fn` line to its closing brace, is longer than that.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::path::Path;

const MAX_LINES: usize = 100;

/// The source with every comment, string and char literal's content blanked to spaces
/// (newlines kept), so braces and keywords can be found by plain search.
fn code_only(text: &str) -> Vec<char> {
    let src: Vec<char> = text.chars().collect();
    let mut out = src.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for c in &mut out[from..to.min(src.len())] {
            if *c != '\n' {
                *c = ' ';
            }
        }
    };
    let mut i = 0;
    while i < src.len() {
        let rest = |k: usize| src.get(i + k).copied().unwrap_or('\0');
        match src[i] {
            '/' if rest(1) == '/' => {
                let end = src[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(src.len(), |p| i + p);
                blank(&mut out, i, end);
                i = end;
            }
            '/' if rest(1) == '*' => {
                let (mut depth, mut j) = (1, i + 2);
                while j < src.len() && depth > 0 {
                    if src[j] == '/' && src.get(j + 1) == Some(&'*') {
                        depth += 1;
                        j += 1;
                    } else if src[j] == '*' && src.get(j + 1) == Some(&'/') {
                        depth -= 1;
                        j += 1;
                    }
                    j += 1;
                }
                blank(&mut out, i, j);
                i = j;
            }
            'r' if (rest(1) == '"' || rest(1) == '#')
                && !src
                    .get(i.wrapping_sub(1))
                    .is_some_and(|c| c.is_alphanumeric() || *c == '_') =>
            {
                let hashes = src[i + 1..].iter().take_while(|&&c| c == '#').count();
                if src.get(i + 1 + hashes) != Some(&'"') {
                    i += 1;
                    continue;
                }
                let mut j = i + 2 + hashes;
                while j < src.len()
                    && !(src[j] == '"' && (1..=hashes).all(|k| src.get(j + k) == Some(&'#')))
                {
                    j += 1;
                }
                blank(&mut out, i, j + 1 + hashes);
                i = j + 1 + hashes;
            }
            '"' => {
                let mut j = i + 1;
                while j < src.len() && src[j] != '"' {
                    j += if src[j] == '\\' { 2 } else { 1 };
                }
                blank(&mut out, i, j + 1);
                i = j + 1;
            }
            // A char literal ('x', '\n', '\u{..}'); a lifetime ('a) has no closing quote.
            '\'' if rest(1) == '\\' || (rest(2) == '\'' && rest(1) != '\'') => {
                let mut j = i + 1;
                while j < src.len() && src[j] != '\'' {
                    j += if src[j] == '\\' { 2 } else { 1 };
                }
                blank(&mut out, i, j + 1);
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// The index just past the block (or `;`-ended item) that starts at or after `from`.
fn item_end(code: &[char], from: usize) -> usize {
    let mut depth = 0usize;
    for (i, &c) in code.iter().enumerate().skip(from) {
        match c {
            ';' if depth == 0 => return i + 1,
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn word_at(code: &[char], i: usize, word: &str) -> bool {
    let len = word.chars().count();
    i + len <= code.len()
        && code[i..i + len].iter().copied().eq(word.chars())
        && !code.get(i.wrapping_sub(1)).copied().is_some_and(is_ident)
        && !code.get(i + len).copied().is_some_and(is_ident)
}

/// `(fn name, lines)` for every function with a body, outside `#[cfg(test)]` items.
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let code = code_only(text);
    let line_of = |i: usize| code[..i].iter().filter(|&&c| c == '\n').count();
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        if code[i] == '#' && code[i..].iter().take(12).collect::<String>() == "#[cfg(test)]" {
            i = item_end(&code, i + 12);
            continue;
        }
        if word_at(&code, i, "fn") {
            let name: String = code[i + 2..]
                .iter()
                .skip_while(|c| c.is_whitespace())
                .take_while(|&&c| is_ident(c))
                .collect();
            let end = item_end(&code, i);
            if code[end - 1] == '}' && !name.is_empty() {
                found.push((name, line_of(end - 1) - line_of(i) + 1));
            }
        }
        i += 1;
    }
    found
}

#[test]
fn the_scanner_measures_a_function_and_skips_tests_strings_and_comments() {
    let text = "fn short() {\n    let s = \"}{\";\n    let c = '}';\n    // }\n}\n\
                fn generic<'a>(x: &'a str) -> &'a str {\n    x\n}\n\
                #[cfg(test)]\nmod tests {\n    fn hidden() {}\n}\n\
                trait T { fn declared(&self); }\n";
    assert_eq!(
        function_lengths(text),
        vec![("short".to_string(), 5), ("generic".to_string(), 3)]
    );
}

#[test]
fn production_functions_stay_under_100_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // `tests/` dirs and `tests.rs` files under src are `#[cfg(test)]` modules.
    let files: Vec<_> = support::sources::workspace_sources()
        .into_iter()
        .filter(|f| !f.components().any(|c| c.as_os_str() == "tests"))
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .collect();
    let mut too_long = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        let shown = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        for (name, lines) in function_lengths(&text) {
            let key = format!("{shown}::{name}");
            if lines > MAX_LINES {
                too_long.push(format!("{key}: {lines} lines"));
            }
        }
    }
    assert!(
        too_long.is_empty(),
        "functions over {MAX_LINES} lines; split them into named parts:\n{}",
        too_long.join("\n")
    );
}
