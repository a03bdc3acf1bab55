//! The context flags every headless command shares.

use clap::Args;
use clap::builder::TypedValueParser;

use crate::context::{PolicyContext, ScheduledDelivery};

/// Under their own help heading, after each command's own flags.
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Context")]
pub struct ContextArgs {
    /// Agent id (agents.list[].id or agents.entries key)
    #[arg(long, global = true)]
    pub agent: Option<String>,
    /// Model provider id (openai, anthropic, google, ...)
    #[arg(long, global = true)]
    pub provider: Option<String>,
    /// Model id (e.g. gpt-5 or anthropic/claude-opus-4)
    #[arg(long, global = true)]
    pub model: Option<String>,
    /// Messaging channel (telegram, discord, ...)
    #[arg(long, global = true)]
    pub channel: Option<String>,
    /// Channel account id
    #[arg(long, global = true)]
    pub account: Option<String>,
    /// Group / chat id within the channel (Telegram ids start with `-`)
    #[arg(long, global = true, allow_hyphen_values = true)]
    pub group: Option<String>,
    /// The sender's id on the channel (owner checks and per-sender group rules)
    #[arg(long, global = true)]
    pub sender_id: Option<String>,
    /// The sender's phone number, E.164 (+15555550123)
    #[arg(long, global = true)]
    pub sender_e164: Option<String>,
    /// The sender's username on the channel
    #[arg(long, global = true)]
    pub sender_username: Option<String>,
    /// The sender's display name
    #[arg(long, global = true)]
    pub sender_name: Option<String>,
    /// The sender is an owner (default for the console operator; a named channel sender is one
    /// only when commands.ownerAllowFrom names them)
    #[arg(long, global = true, conflicts_with = "not_owner")]
    pub owner: bool,
    /// The sender is not an owner: owner-only tools are removed
    #[arg(long, global = true)]
    pub not_owner: bool,
    /// Session key (keys with a `subagent` segment make a subagent context)
    #[arg(long, global = true)]
    pub session_key: Option<String>,
    /// The session key of the turn that spawned this subagent: its group policy and its own
    /// tool policy (denials; its tool list when it had an allowlist) carry over
    #[arg(long, global = true, value_name = "KEY")]
    pub spawned_by: Option<String>,
    /// Treat the session as a subagent
    #[arg(long, global = true)]
    pub subagent: bool,
    /// Spawn depth of the subagent session (default 1); at maxSpawnDepth it is a leaf
    #[arg(long, global = true, value_name = "N")]
    pub subagent_depth: Option<u32>,
    /// Treat the session as sandboxed
    #[arg(long, global = true)]
    pub sandboxed: bool,
    /// The gateway client whose chat.send starts the turn (control-ui, tui, cli, or another
    /// OpenClaw client id): its capabilities decide show_widget, screen and the task tools
    #[arg(long, global = true, value_name = "ID")]
    pub client: Option<String>,
    /// A capability the turn's client declares besides its own (inline-widgets, ui-commands,
    /// task-suggestions); repeatable
    #[arg(long, global = true, value_name = "CAP")]
    pub client_cap: Vec<String>,
    /// The turn runs on a gateway (its agent method: `openclaw agent` while a gateway runs),
    /// not as `openclaw agent --local`; a sender, a client, a spawner and --not-owner imply it
    #[arg(long, global = true)]
    pub gateway_run: bool,
    /// The turn is a heartbeat's (a scheduled wake, `openclaw system event --mode now`): on the
    /// gateway, as no owner; heartbeat_respond where messages.visibleReplies is "message_tool"
    #[arg(long, global = true, conflicts_with_all = [
        "owner", "sender_id", "sender_e164", "sender_username", "sender_name",
        "spawned_by", "client", "client_cap",
    ])]
    pub heartbeat: bool,
    /// The turn is a scheduled job's (an automation's agent turn, `openclaw cron run`) with this
    /// tool cap, its toolsAllow: names, groups or plugin ids, comma-separated, `*` for all, ""
    /// for none. On the gateway, naming no owner, in the job's own cron session unless
    /// --session-key names another
    #[arg(long, global = true, value_name = "LIST", conflicts_with_all = [
        "owner", "not_owner", "sender_id", "sender_e164", "sender_username", "sender_name",
        "spawned_by", "client", "client_cap", "heartbeat", "group",
    ])]
    pub scheduled_tools: Option<String>,
    /// Where the scheduled job delivers its answer: none, announce (to a chat on --channel,
    /// which becomes the turn's message provider; the default when --channel is given) or
    /// webhook (no chat: the turn gets no message tool)
    #[arg(
        long,
        global = true,
        value_name = "MODE",
        value_parser = delivery_modes(),
        requires = "scheduled_tools"
    )]
    pub scheduled_delivery: Option<ScheduledDelivery>,
    /// The scheduled job is one an agent created, in this session (the job's owner.sessionKey
    /// in `openclaw cron list --json`): its runs read that session's group policy, whatever
    /// session they run in. Unset: a job an operator created
    #[arg(
        long,
        global = true,
        value_name = "SESSION_KEY",
        requires = "scheduled_tools"
    )]
    pub job_owner: Option<String>,
    /// The channel account the job's creator wrote from (its owner.accountId); default
    /// `default`
    #[arg(long, global = true, value_name = "ID", requires = "job_owner")]
    pub job_owner_account: Option<String>,
    /// The channel the creator's turn came over (an owner's Telegram message), which the job
    /// reads its account and group policy in when --job-owner names no channel
    /// (`agent:<id>:main`); unset: a turn over no channel (an operator's client)
    #[arg(long, global = true, value_name = "CHANNEL", requires = "job_owner")]
    pub job_owner_channel: Option<String>,
}

/// `--scheduled-delivery`'s values: the core's modes, listed in `--help` and its errors.
fn delivery_modes() -> impl TypedValueParser<Value = ScheduledDelivery> {
    clap::builder::PossibleValuesParser::new(ScheduledDelivery::ALL.map(ScheduledDelivery::as_str))
        .try_map(|mode| mode.parse::<ScheduledDelivery>())
}

impl ContextArgs {
    pub fn to_context(&self) -> PolicyContext {
        PolicyContext {
            agent: self.agent.clone(),
            provider: self.provider.clone(),
            model: self.model.clone(),
            channel: self.channel.clone(),
            account: self.account.clone(),
            group: self.group.clone(),
            sender_id: self.sender_id.clone(),
            sender_e164: self.sender_e164.clone(),
            sender_username: self.sender_username.clone(),
            sender_name: self.sender_name.clone(),
            owner: if self.not_owner {
                Some(false)
            } else if self.owner {
                Some(true)
            } else {
                None
            },
            session_key: self.session_key.clone(),
            spawned_by: self.spawned_by.clone(),
            subagent: self.subagent,
            subagent_depth: self.subagent_depth,
            sandboxed: self.sandboxed,
            remote: false,
            client: self.client.clone(),
            client_caps: self.client_cap.clone(),
            gateway_run: self.gateway_run,
            heartbeat: self.heartbeat,
            scheduled_tools: self.scheduled_tools.as_deref().map(PolicyContext::tool_cap),
            scheduled_delivery: self.scheduled_delivery,
            job_owner: self.job_owner.clone(),
            job_owner_account: self.job_owner_account.clone(),
            job_owner_channel: self.job_owner_channel.clone(),
            channel_from_key: false,
            turn_channel: None,
            sender_rules_off: false,
        }
        .with_depth_implying_subagent()
        .with_session_key()
    }
}
