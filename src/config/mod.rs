//! (being built)
pub mod settings;
