//! Semantic styles only (codex's styles.md): dim for secondary text, red for errors, yellow for
//! warnings, green for success, cyan for accents. No custom RGB. With `NO_COLOR` set every colour
//! is dropped and meaning is carried by symbols and modifiers alone.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};

static COLORS: OnceLock<bool> = OnceLock::new();

/// Whether colours are used (`NO_COLOR` unset or empty).
pub(crate) fn colors_enabled() -> bool {
    *COLORS.get_or_init(|| std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()))
}

fn fg(color: Color) -> Style {
    if colors_enabled() {
        Style::default().fg(color)
    } else {
        Style::default()
    }
}

pub(crate) fn dim() -> Style {
    Style::default().add_modifier(Modifier::DIM)
}

pub(crate) fn error() -> Style {
    fg(Color::Red)
}

pub(crate) fn warning() -> Style {
    fg(Color::Yellow)
}

pub(crate) fn ok() -> Style {
    fg(Color::Green)
}

pub(crate) fn accent() -> Style {
    fg(Color::Cyan)
}

pub(crate) fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// The selected row of a list or table.
pub(crate) fn selected() -> Style {
    Style::default().add_modifier(Modifier::REVERSED)
}

/// A tool the policy hides in the current context.
pub(crate) fn hidden() -> Style {
    Style::default().add_modifier(Modifier::DIM | Modifier::CROSSED_OUT)
}
