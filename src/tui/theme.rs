//! Semantic styles only (codex's styles.md): dim for secondary text, red for errors, yellow for
//! warnings, green for success, cyan for accents. No custom RGB. With `NO_COLOR` set every colour
//! is dropped and meaning is carried by symbols and modifiers alone.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};

static COLORS: OnceLock<bool> = OnceLock::new();

/// Whether colours are used (`NO_COLOR` unset or empty).
pub fn colors_enabled() -> bool {
    *COLORS.get_or_init(|| std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()))
}

fn fg(color: Color) -> Style {
    if colors_enabled() {
        Style::default().fg(color)
    } else {
        Style::default()
    }
}

pub fn dim() -> Style {
    Style::default().add_modifier(Modifier::DIM)
}

pub fn error() -> Style {
    fg(Color::Red)
}

pub fn warning() -> Style {
    fg(Color::Yellow)
}

pub fn ok() -> Style {
    fg(Color::Green)
}

pub fn accent() -> Style {
    fg(Color::Cyan)
}

pub fn bold() -> Style {
    Style::default().add_modifier(Modifier::BOLD)
}

/// The selected row of a list or table.
pub fn selected() -> Style {
    Style::default().add_modifier(Modifier::REVERSED)
}

/// A tool the policy hides in the current context.
pub fn hidden() -> Style {
    Style::default().add_modifier(Modifier::DIM | Modifier::CROSSED_OUT)
}
