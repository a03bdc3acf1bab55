//! The front door: every type, event and call the console uses, and nothing else. The console
//! names no crate below the Deck (a test in tests/workspace_layout.rs reads its sources); what it
//! needs from the core, the gateways or the router is listed here, item by item, so a change
//! below that the console would feel shows up as a change to this list.
//!
//! The Deck itself (build, reload, the event stream, the gateway desk, policy resolution) is at
//! the top; the core's types follow in modules named as in the core, so paths read the same.

pub use crate::{Deck, DeckEvent, DeckState};

/// Core events handed on with a pacing permit (the console gives it back when it is done).
pub mod paced {
    pub use crate::paced::{Permit, forward_channel};
}

/// A gateway session's tools against clawdeck's answer for its context.
pub mod session_compare {
    pub use crate::session_compare::{SessionCheck, check_session, session_context};
}

pub mod resolutions {
    pub use crate::resolutions::Resolved;
}

pub mod exec_sessions {
    pub use crate::exec_sessions::ExecSessionView;
}

pub mod auth_profiles {
    pub use clawdeck_core::auth_profiles::{ProfileStore, StoreOwner, StoredProfile};
}

pub mod catalog {
    pub use clawdeck_core::catalog::Registry;
}

pub mod comparison {
    pub use clawdeck_core::comparison::{Agreement, ToolVerdict, own_tools};
    pub mod compare {
        pub use clawdeck_core::comparison::compare::{NOT_BUILT, deciding_rule};
    }
}

pub mod config {
    pub use clawdeck_core::config::{
        ConfigRequest, LoadedConfig, SETTINGS_FILE, load, load_demo, load_from_str,
    };
    pub mod keys {
        pub use clawdeck_core::config::keys::{ACTION_NAMES, NamedKey, parse_key};
    }
    pub mod settings {
        pub use clawdeck_core::config::settings::RouterSettings;
    }
    pub mod watch {
        pub use clawdeck_core::config::watch::{FileStamps, POLL_EVERY, watched_paths};
    }
}

pub mod context {
    pub use clawdeck_core::context::{
        CHAT_SEND_CHANNEL, CreatorChannel, PolicyContext, ScheduledDelivery, TurnHost,
    };
}

pub mod decision_log {
    pub use clawdeck_core::decision_log::{
        COLUMNS, CallEnd, CallFacts, DecisionKind, DecisionLog, DecisionLogSettings,
        DecisionRecord, Entry, LogFollower,
    };
}

pub mod exec_allowlist {
    pub use clawdeck_core::exec_allowlist::PathResolver;
}

pub mod exec_verdict {
    pub use clawdeck_core::exec_verdict::{ExecVerdict, LocalVerdicts, Verdict, explain_locally};
    pub mod approvals_doc {
        pub use clawdeck_core::exec_verdict::approvals_doc::{read_state, state_locator};
    }
}

pub mod lint {
    pub use clawdeck_core::lint::{
        Finding, LintReport, LintScope, Severity, approvals_doc_findings, config_text, lint,
    };
}

pub mod mcp_servers {
    pub use clawdeck_core::mcp_servers::ServerListing;
}

/// What a gateway's paired nodes published (the console's tests build a config with them).
pub mod node_tools {
    pub use clawdeck_core::node_tools::{ConnectedNodes, parse_node_list};
}

pub mod paths {
    pub use clawdeck_core::paths::{console_copies_dir, openclaw_state_dir};
}

pub mod pipeline {
    pub use clawdeck_core::pipeline::{CallOutcome, CallRequest, call_label};
}

pub mod policy {
    pub use clawdeck_core::policy::{
        Decision, LayerDecision, LayerId, Removal, RemovalKind, Resolution, ResolvedContext,
        ToolTrace, resolve,
    };
    pub mod diff {
        pub use clawdeck_core::policy::diff::{DiffSide, ResolutionDiff, diff_what_if};
    }
}

pub mod process {
    pub use clawdeck_core::process::KillReason;
    pub mod private_fs {
        pub use clawdeck_core::process::private_fs::create_private_dir_all;
    }
    pub mod stop {
        pub use clawdeck_core::process::stop::set_terminal_restore;
    }
    pub mod stop_signals {
        pub use clawdeck_core::process::stop_signals::stop_signals;
    }
}

pub mod prompt {
    pub use clawdeck_core::prompt::PromptMode;
    pub mod report {
        pub use clawdeck_core::prompt::report::section_sizes;
    }
    pub mod view {
        pub use clawdeck_core::prompt::view::{LlmView, LlmViewOptions, build_llm_view};
    }
    pub mod job_message {
        pub use clawdeck_core::prompt::job_message::{ScheduledJob, job_user_message_at};
    }
}

pub mod provider {
    pub use clawdeck_core::provider::ProviderApi;
}

pub mod queue {
    pub use clawdeck_core::queue::{
        EntryId, EntryOutcome, EntrySnapshot, EntryState, LaneSnapshot, QueueEvent, QueueSnapshot,
    };
}

pub mod regular_file {
    pub use clawdeck_core::regular_file::{Links, write};
}

pub mod sanitize {
    pub use clawdeck_core::sanitize::{
        CleanLine, HIDDEN_CHARS_WARNING, Sanitizer, StdStream, plain, plain_text, visible,
    };
}

pub mod semantics {
    pub use clawdeck_core::semantics::{Installed, PackChoice, available_packs};
}

pub mod stages {
    pub mod hooks {
        pub use clawdeck_core::stages::hooks::HookStep;
    }
    pub mod validate {
        pub use clawdeck_core::stages::validate::ParamValidator;
    }
}

pub mod tool {
    pub use clawdeck_core::tool::{ContentBlock, ToolResult};
}

/// The gateways: connections, the approvals desk, rosters, transcripts, health and logs.
pub mod gateway {
    pub use clawdeck_gateway::{
        Backoff, ClientEvent, ConnectOptions, DeviceIdentity, EventFrame, GatewayAuth,
        GatewayClient, GatewayEndpoint, Hello,
    };
    pub mod approval_board {
        pub use clawdeck_gateway::approval_board::{ApprovalBoard, ApprovalState, BoardEntry};
    }
    pub mod approval_ledger {
        pub use clawdeck_gateway::approval_ledger::{Grant, HistoryEntry, grants_in, history_in};
    }
    pub mod approvals {
        pub use clawdeck_gateway::approvals::{Approval, ApprovalKind, Decision};
    }
    pub mod chat {
        pub use clawdeck_gateway::chat::ChatEvent;
    }
    pub mod desk {
        pub use clawdeck_gateway::desk::{DeskEvent, DeskSink, GatewayDesk};
    }
    pub mod desk_session {
        pub use clawdeck_gateway::desk_session::{SessionAct, SessionNews};
    }
    pub mod endpoint {
        pub use clawdeck_gateway::endpoint::{host_of, websocket_url};
    }
    pub mod feed {
        pub use clawdeck_gateway::feed::{FOLLOW, RosterSink, SessionFollow, spawn_roster_feed};
    }
    pub mod health {
        pub use clawdeck_gateway::health::{GatewayHealth, SessionUsage, uptime_text};
    }
    pub mod history {
        pub use clawdeck_gateway::history::{HISTORY, parse_history};
    }
    pub mod invoke {
        pub use clawdeck_gateway::invoke::InvokeRequest;
    }
    pub mod invoke_run {
        pub use clawdeck_gateway::invoke_run::GatewayCall;
    }
    pub mod logs {
        pub use clawdeck_gateway::logs::{LogBuffer, LogLine, TailRead};
    }
    pub mod pulse {
        pub use clawdeck_gateway::pulse::{Pulse, PulseSink};
    }
    pub mod roster {
        pub use clawdeck_gateway::roster::{Link, Roster};
    }
    pub mod transcript {
        pub use clawdeck_gateway::transcript::{
            KEPT_ENTRIES, SessionTranscript, ToolEntry, ToolOutcome, TranscriptEntry,
        };
    }
    pub mod watch {
        pub use clawdeck_gateway::watch::{ToolCall, WatchItem, WatchKind, classify, one_line};
    }
}

/// clawbot_router: runs, their events and the service that starts and kills them.
pub mod router {
    pub use clawdeck_router::{
        Mode, RouterEvent, RouterEventKind, RouterOutcome, RouterRequest, RouterRun, RouterService,
        RunStatus, StdStream, TransportKind, texts,
    };
    pub mod service {
        pub use clawdeck_router::service::{
            EnvLookup, OPERATOR_TIMEOUT_CEILING, RAW_LIMIT_BYTES, RecordCut,
        };
    }
}
