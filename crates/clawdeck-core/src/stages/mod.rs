//! The adapter layer (seed 001 §4): what wraps every tool between the policy and the run.
//!
//! - `aliases`: parameter aliases in the schema and at call time (§4.4).
//! - `validate`: parameters checked against the tool's JSON Schema, errors naming the path.
//! - `hooks`: before_tool_call hooks as external commands (§4.2).
//! - `cancel`: the caller's and the run's cancellation combined (§4.3).
//! - `results`: text truncation, image checks, `{"error": ...}` results (§4.5, seed 004).

pub mod aliases;
pub mod cancel;
pub mod hooks;
pub mod results;
pub mod validate;
