//! Flags that also read an environment variable take what shells and CI files write: an empty
//! value or 0/false/no/off is unset, anything else is set. One test, so nothing else in this
//! process reads the environment while it changes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use clap::Parser;
use clawdeck::cli::Cli;

#[test]
fn clawdeck_no_mcp_servers_reads_empty_and_falsey_values_as_unset() {
    for (value, expect) in [
        ("", false),
        ("0", false),
        ("false", false),
        ("off", false),
        ("1", true),
        ("true", true),
        ("yes", true),
    ] {
        // SAFETY: this test binary has one test, so no other thread reads the environment.
        unsafe { std::env::set_var("CLAWDECK_NO_MCP_SERVERS", value) };
        let cli = Cli::try_parse_from(["clawdeck", "tools"])
            .unwrap_or_else(|e| panic!("CLAWDECK_NO_MCP_SERVERS={value:?} refused: {e}"));
        assert_eq!(
            cli.no_mcp_servers, expect,
            "CLAWDECK_NO_MCP_SERVERS={value:?}"
        );
    }
}
