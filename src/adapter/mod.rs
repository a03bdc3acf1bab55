//! (being built)

pub mod aliases;
