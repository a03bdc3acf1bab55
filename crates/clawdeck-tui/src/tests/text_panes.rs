//! Console tests for long text and large input: the Invoke editor under a 200 KB paste (one
//! edit, bounded validation, a size cap), the Invoke result and the Prompt view wrapping,
//! scrolling, searching and jumping between sections, and text fields that take `j`/`k` as
//! letters. Snapshots are drawn on a TestBackend with a fixed clock and each asserts what it
//! shows.

use std::time::Duration;

use super::harness::{Harness, fixture, fixture_config};
use crate::app::Overlay;
use crate::event::{AppEvent, CoreEvent};
use crate::pipeline::CallOutcome;
use crate::tool::ToolResult;
use crate::views::ViewId;
use crate::views::invoke::{EAGER_VALIDATION_BYTES, MAX_PARAMS_BYTES};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;
use serde_json::json;

fn harness() -> Harness {
    let mut h = Harness::new();
    let mut config = fixture_config();
    config.settings.workspace = Some(fixture("workspace"));
    h.app.set_config(config);
    h.app.status = None;
    h
}

// ---------------------------------------------------------------- the invoke editor under a paste

/// About 200 KB of valid `read` parameters over many lines, with the CR LF line ends a terminal
/// may paste.
fn big_params() -> String {
    let mut text = String::from("{\r\n  \"path\": \"");
    text.push_str(&"a".repeat(100_000));
    text.push_str("\"\r\n");
    for _ in 0..25_000 {
        text.push_str("  \r\n");
    }
    text.push('}');
    text
}

fn editing_read() -> Harness {
    let mut h = harness();
    h.app.handle_event(AppEvent::SwitchView(ViewId::Invoke));
    h.key(KeyCode::Enter); // read: its skeleton in the editor
    assert_eq!(h.app.invoke.editing.as_deref(), Some("read"));
    h.app.invoke.editor = TextArea::default();
    h
}

#[test]
fn a_200_kb_paste_lands_intact_as_one_edit_and_is_validated_once_typing_pauses() {
    let mut h = editing_read();
    let pasted = big_params();
    assert!(pasted.len() > 200_000 && pasted.len() < MAX_PARAMS_BYTES);
    let before = h.app.invoke.validations;

    h.app.handle_event(AppEvent::Paste(pasted.clone()));
    let text = h.app.invoke.editor.lines().join("\n");
    assert_eq!(text, pasted.replace("\r\n", "\n"), "the paste lands intact");
    assert_eq!(h.app.invoke.editor.lines().len(), 25_003);
    assert_eq!(
        h.app.invoke.validations, before,
        "a large paste is not validated on the input path"
    );

    // Typing into the large text: every key is one edit, none re-validates the whole text, and
    // frames drawn meanwhile do not either.
    h.key(KeyCode::End);
    for _ in 0..200 {
        h.key(KeyCode::Char(' '));
    }
    let screen = h.screen(140, 30);
    assert!(
        screen.contains("checked when typing pauses"),
        "the editor says the check is pending:\n{screen}"
    );
    assert_eq!(
        h.app.invoke.validations, before,
        "no validation while typing"
    );

    // Once typing pauses, one tick asks for a frame and that frame validates once.
    h.clock.advance(Duration::from_secs(1));
    h.app.handle_event(AppEvent::Tick);
    let screen = h.screen(140, 30);
    assert_eq!(
        h.app.invoke.validations,
        before + 1,
        "exactly one validation"
    );
    assert!(
        h.app.invoke.validation.is_ok(),
        "{:?}",
        h.app.invoke.validation
    );
    assert!(screen.contains("✓ valid"), "{screen}");
    h.screen(140, 30);
    assert_eq!(
        h.app.invoke.validations,
        before + 1,
        "and not again per frame"
    );
}

#[test]
fn small_texts_are_still_validated_on_every_edit() {
    let mut h = editing_read();
    let before = h.app.invoke.validations;
    h.type_text("{\"path\": 5}");
    assert!(h.app.invoke.editor_bytes() <= EAGER_VALIDATION_BYTES);
    assert_eq!(h.app.invoke.validations, before + 11);
    let problems = h.app.invoke.validation.clone().unwrap_err();
    assert!(problems.iter().any(|p| p.contains("path")), "{problems:?}");
}

#[test]
fn a_paste_past_the_cap_is_refused_with_a_message_and_changes_nothing() {
    let mut h = editing_read();
    h.type_text("{}");
    let too_big = "x".repeat(MAX_PARAMS_BYTES);
    h.app.handle_event(AppEvent::Paste(too_big));
    h.pump();
    assert_eq!(
        h.app.invoke.editor.lines().join("\n"),
        "{}",
        "nothing inserted"
    );
    let status = h.status();
    assert!(
        status.contains("paste refused") && status.contains("1024 KiB cap"),
        "{status}"
    );
    assert!(status.contains("--params @file"), "{status}");
}

// ---------------------------------------------------------------- the invoke result

fn finished_call(h: &mut Harness, text: &str) {
    h.app.handle_event(AppEvent::SwitchView(ViewId::Invoke));
    h.key(KeyCode::Enter);
    h.app.invoke.editor = TextArea::from(["{\"path\": \"notes.txt\"}"]);
    h.app.invoke.validate();
    h.app.handle_event(AppEvent::Key(KeyEvent::new(
        KeyCode::Char('r'),
        KeyModifiers::CONTROL,
    )));
    let call = match &h.emitted()[..] {
        [AppEvent::Invoke { call, .. }] => *call,
        other => panic!("{other:?}"),
    };
    let outcome = CallOutcome::Completed {
        tool: "read".into(),
        result: ToolResult::text(text, json!({"status": "ok"})),
        is_error: false,
        hooks: Vec::new(),
        lane: "main".into(),
        duration: Duration::from_millis(4),
    };
    h.app
        .handle_event(AppEvent::Core(CoreEvent::InvokeDone { call, outcome }));
    h.key(KeyCode::Esc); // leave the editor: keys go to the lists and the result
    h.app.status = None;
}

#[test]
fn the_invoke_result_wraps_long_lines_scrolls_and_can_scroll_sideways() {
    let mut h = harness();
    let long = format!("START {} END", "word ".repeat(40));
    let mut text = long.clone();
    for i in 0..60 {
        text.push_str(&format!("\nline {i}"));
    }
    finished_call(&mut h, &text);
    let screen = h.screen(120, 30);
    insta::assert_snapshot!("invoke_result_wrapped", screen);
    assert!(
        screen.contains("START") && screen.contains("END"),
        "wrapped whole"
    );
    assert!(screen.contains("lines 1–8 of 67 · w wrap on"), "{screen}");

    // PageDown scrolls the result (the tool list keeps its selection).
    let selected = h.app.invoke.selected;
    h.key(KeyCode::PageDown);
    let screen = h.screen(120, 30);
    assert_eq!(h.app.invoke.selected, selected);
    assert!(!screen.contains("START"), "scrolled past the first lines");
    assert!(screen.contains("line 10"), "{screen}");

    // Wrap off: the long line is cut at the edge and → shows its end.
    h.key(KeyCode::PageUp);
    h.key(KeyCode::PageUp);
    h.key(KeyCode::Char('w'));
    h.pump();
    assert_eq!(h.status(), "the result scrolls sideways (← / →)");
    let screen = h.screen(120, 30);
    insta::assert_snapshot!("invoke_result_unwrapped", screen);
    assert!(screen.contains("wrap off") && !screen.contains("END"));
    for _ in 0..20 {
        h.key(KeyCode::Right);
    }
    let screen = h.screen(120, 30);
    assert!(screen.contains("END"), "{screen}");
}

// ---------------------------------------------------------------- the prompt view

fn prompt_view() -> Harness {
    let mut h = harness();
    h.key(KeyCode::Char('5'));
    h.pump();
    assert_eq!(h.app.view, ViewId::Prompt);
    h
}

/// The text rows inside the Prompt view's frame (below the tabs and context bar).
fn first_text_row(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let top = rows
        .iter()
        .position(|r| r.contains("What the model sees"))
        .expect("the prompt block");
    rows[top + 1]
        .trim_matches(|c| c == '│' || c == ' ')
        .to_string()
}

#[test]
fn the_prompt_view_wraps_and_jumps_between_sections() {
    let mut h = prompt_view();
    let screen = h.screen(70, 24);
    // The prompt names the workspace, an absolute path that differs per checkout: its length
    // is not part of what this snapshot shows.
    let screen = mask_prompt_sizes(&screen);
    insta::assert_snapshot!("prompt_wrapped_narrow", screen);
    // Where the context window goes: the largest section first, clawdeck's own guidance
    // labelled as clawdeck's.
    let first_size = screen
        .lines()
        .position(|l| l.contains("[n] tok  Tooling · the tool catalog"));
    let router = screen
        .lines()
        .position(|l| l.contains("clawbot_router · clawdeck's router guidance"));
    assert!(
        screen.contains("Where the context window goes")
            && first_size < router
            && first_size.is_some(),
        "{screen}"
    );
    let longest = h
        .app
        .prompt
        .lines()
        .iter()
        .map(|l| l.width())
        .max()
        .unwrap();
    assert!(
        longest > 70,
        "the fixture prompt has lines wider than the pane"
    );
    assert!(
        screen.contains("lines 1–14 of 613"),
        "17 rows, three lines wrap:\n{screen}"
    );

    // `]` goes to the first `## ` heading, again to the next, `[` back.
    h.key(KeyCode::Char(']'));
    let first = first_text_row(&h.screen(70, 24));
    assert!(first.starts_with("## "), "{first}");
    h.key(KeyCode::Char(']'));
    let second = first_text_row(&h.screen(70, 24));
    assert!(second.starts_with("## ") && second != first, "{second}");
    h.key(KeyCode::Char('['));
    assert_eq!(first_text_row(&h.screen(70, 24)), first);

    // The last section is the tools payload; past it, the status says there is none.
    for _ in 0..40 {
        h.key(KeyCode::Char(']'));
    }
    h.pump();
    let screen = h.screen(70, 24);
    assert!(screen.contains("tools payload ·"), "{screen}");
    assert_eq!(h.status(), "no section after this one");

    // Wrap off: the footer says so and long lines are cut at the edge.
    h.key(KeyCode::Char('g'));
    h.key(KeyCode::Char('w'));
    h.pump();
    assert_eq!(h.status(), "long lines scroll sideways (← / →)");
    let screen = h.screen(70, 24);
    assert!(screen.contains("lines 1–17 of"), "{screen}");
    assert!(screen.contains("wrap off"), "{screen}");
    // The prompt names the workspace, an absolute path that differs per checkout: its length
    // is not part of what this snapshot shows.
    let screen = mask_prompt_sizes(&screen);
    insta::assert_snapshot!("prompt_unwrapped_narrow", screen);
}

/// The prompt's sizes (characters, a section's tokens and share, the total) with `[n]`: the
/// prompt names the checkout's path, whose length differs per machine.
fn mask_prompt_sizes(screen: &str) -> String {
    let masks = [
        (r"\d+ chars", "[n] chars"),
        (r"about \d+ tokens", "about [n] tokens"),
        // Right-aligned columns: their padding follows the number's width.
        (r" *\d+\.\d%", " [n]%"),
        (r" *\d+ tok\b", " [n] tok"),
    ];
    masks
        .iter()
        .fold(screen.to_string(), |text, (pattern, with)| {
            regex::Regex::new(pattern)
                .expect("regex")
                .replace_all(&text, *with)
                .into_owned()
        })
}

#[test]
fn the_prompt_view_searches_with_a_hit_count() {
    let mut h = prompt_view();
    h.key(KeyCode::Char('/'));
    h.type_text("tool");
    let screen = h.screen(100, 24);
    assert!(
        screen.contains("search: tool"),
        "the input is shown:\n{screen}"
    );
    h.key(KeyCode::Enter);
    let hits = h
        .app
        .prompt
        .lines()
        .iter()
        .filter(|l| l.to_string().to_lowercase().contains("tool"))
        .count();
    assert!(hits > 2, "{hits}");
    let screen = h.screen(100, 24);
    insta::assert_snapshot!("prompt_search_first_hit", mask_prompt_sizes(&screen));
    assert!(
        screen.contains(&format!("match 1 of {hits} for \"tool\"")),
        "{screen}"
    );
    h.key(KeyCode::Char('n'));
    assert!(h.screen(100, 24).contains(&format!("match 2 of {hits}")));
    h.key(KeyCode::Char('N'));
    h.key(KeyCode::Char('N'));
    assert!(
        h.screen(100, 24)
            .contains(&format!("match {hits} of {hits}")),
        "N wraps around to the last hit"
    );
    h.key(KeyCode::Char('/'));
    h.type_text("no such text anywhere");
    h.key(KeyCode::Enter);
    assert!(
        h.screen(100, 24)
            .contains("no match for \"no such text anywhere\"")
    );
}

// ---------------------------------------------------------------- j and k in text fields

#[test]
fn j_and_k_type_letters_in_every_text_field() {
    // Policy filter.
    let mut h = harness();
    h.key(KeyCode::Char('/'));
    let selected = h.app.policy.selected;
    h.type_text("jk");
    assert_eq!(h.app.policy.filter.text, "jk");
    assert_eq!(h.app.policy.selected, selected);

    // Prompt search.
    let mut h = prompt_view();
    h.key(KeyCode::Char('/'));
    h.type_text("jkj");
    assert!(h.screen(100, 24).contains("search: jkj"));

    // Router search and the new-run dialog.
    let mut h = harness();
    h.key(KeyCode::Char('3'));
    h.pump();
    h.key(KeyCode::Char('r'));
    h.type_text("jk");
    let screen = h.screen(120, 30);
    assert!(screen.contains("message: jk"), "message field:\n{screen}");
    h.key(KeyCode::Tab);
    h.type_text("kj");
    assert!(h.screen(120, 30).contains("message: jkkj"), "message field");

    // The context editor's pickers: j/k filter the choices instead of moving.
    let mut h = harness();
    h.key(KeyCode::Char('c'));
    h.key(KeyCode::Enter); // the first field's picker
    h.type_text("jk");
    match &h.app.overlay {
        Some(Overlay::Context(editor)) => {
            let picker = &editor.picker.as_ref().expect("a picker is open").1;
            assert_eq!(picker.typed.text, "jk");
        }
        _ => panic!("the context editor is open"),
    }

    // The help overlay's search.
    let mut h = harness();
    h.key(KeyCode::Char('?'));
    h.type_text("jk");
    match &h.app.overlay {
        Some(Overlay::Help(help)) => assert_eq!(help.query.text, "jk"),
        _ => panic!("help is open"),
    }

    // The invoke editor.
    let mut h = editing_read();
    h.type_text("jk");
    assert_eq!(h.app.invoke.editor.lines().join("\n"), "jk");
}
