//! Who is asking: the context every policy decision and every call is made for.

use serde::{Deserialize, Serialize};

/// The channel a `chat.send` turn comes over (OpenClaw's internal message channel): a turn a
/// gateway client starts itself.
pub const CHAT_SEND_CHANNEL: &str = "webchat";

/// The message provider of a paired node's turn (its voice transcript, sent through the
/// gateway's agent path).
pub const NODE_CHANNEL: &str = "node";

/// The context of a tool listing or call (seed 001 §3.3–§3.6). Every field is optional so that a
/// bare context means "the default agent, talking directly to its owner".
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PolicyContext {
    /// Agent id (`agents.list[].id` or an `agents.entries` key); the default agent when absent.
    pub agent: Option<String>,
    /// Model provider id (`openai`, `anthropic`, `google`, ...).
    pub provider: Option<String>,
    /// Model id (`gpt-5`, or `anthropic/claude-opus-4`).
    pub model: Option<String>,
    /// Messaging channel (`telegram`, `discord`, `whatsapp`, ...).
    pub channel: Option<String>,
    /// Channel account id (`channels.<ch>.accounts.<acct>`).
    pub account: Option<String>,
    /// Group or chat id within the channel.
    pub group: Option<String>,
    #[serde(alias = "senderId")]
    pub sender_id: Option<String>,
    #[serde(alias = "senderE164")]
    pub sender_e164: Option<String>,
    #[serde(alias = "senderUsername")]
    pub sender_username: Option<String>,
    #[serde(alias = "senderName")]
    pub sender_name: Option<String>,
    /// Whether the sender is an owner; owner-only tools are removed otherwise. Defaults to true
    /// (an operator at the console is the owner).
    pub owner: Option<bool>,
    /// Session key; `subagent:` keys make the context a subagent.
    #[serde(alias = "sessionKey")]
    pub session_key: Option<String>,
    /// The session key of the turn that spawned this subagent (OpenClaw's `spawnedBy`). It
    /// makes the context a subagent's one level below the spawner; the spawner's key gives the
    /// channel and group when this session's key names none, and the spawner's own tool policy
    /// is inherited (its denials, and its tool list when it had an allowlist).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "spawnedBy")]
    pub spawned_by: Option<String>,
    /// Forces the subagent layer on.
    pub subagent: bool,
    /// Spawn depth of a subagent session (1: spawned by a main session). A subagent at
    /// `maxSpawnDepth` is a leaf and loses the spawning tools (today's OpenClaw).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "subagentDepth")]
    pub subagent_depth: Option<u32>,
    /// Forces the sandbox layer on.
    pub sandboxed: bool,
    /// The caller is a remote agent (a clawBot reaching back); local system tools are never offered.
    pub remote: bool,
    /// The gateway client whose `chat.send` started the turn: OpenClaw's client id
    /// (`openclaw-control-ui`, `openclaw-tui`, `cli`, ...; `control-ui` and `tui` name the first
    /// two). Only such a turn carries a client's capabilities, and a client makes the turn a
    /// webchat one when no channel is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// Capabilities the turn's client declares besides those OpenClaw's own client of that id
    /// declares (`inline-widgets`, `task-suggestions`, `ui-commands`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(alias = "clientCaps")]
    pub client_caps: Vec<String>,
    /// The turn runs on a gateway (its `agent` method: `openclaw agent` while a gateway runs),
    /// not as `openclaw agent --local`. A sender, a client, a spawner and a non-owner each make
    /// the turn a gateway's already ([`PolicyContext::turn_host`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[serde(alias = "gatewayRun")]
    pub gateway_run: bool,
    /// The turn is a heartbeat's (a scheduled wake, `openclaw system event --mode now`): the
    /// gateway runs it in the agent's session as no owner and with no caller.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub heartbeat: bool,
    /// The turn is a scheduled job's (an automation's agent turn) and this is the job's tool
    /// cap (its `toolsAllow`): only the built tools it names reach the model, `*` names all,
    /// an empty cap none. The cron service runs it on the gateway naming no owner, in the job's
    /// own session (`agent:<id>:cron:<job>:run:<run>`) unless the session key names another.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "scheduledTools")]
    pub scheduled_tools: Option<Vec<String>>,
    /// Where the scheduled job delivers its answer (its `delivery.mode`); unset is `none`. A
    /// job announcing to a chat runs with that chat's channel (`channel`, and `account`) as
    /// its message provider; a webhook job's turn gets no message tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "scheduledDelivery")]
    pub scheduled_delivery: Option<ScheduledDelivery>,
    /// The session of the agent's turn that created the scheduled job (the job's
    /// `owner.sessionKey`, as `openclaw cron list --json` shows it): a job an agent made
    /// (OpenClaw's `scheduledToolPolicy` mode `account`) reads the group policy of that
    /// session, with [`PolicyContext::job_owner_account`], whatever session it runs in. Unset:
    /// a job an operator made (mode `trusted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "jobOwner")]
    pub job_owner: Option<String>,
    /// The channel account the job's creator wrote from (its `owner.accountId`); unset is
    /// `default`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "jobOwnerAccount")]
    pub job_owner_account: Option<String>,
    /// The channel the creator's own turn came over (an owner's Telegram message: OpenClaw's
    /// `ownerOrigin`); it names the channel whose accounts and group policy the job reads only
    /// when the creator's session key names none (a direct chat under `session.dmScope:
    /// main` is `agent:<id>:main`). Unset: a turn over no channel (an operator's client).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(alias = "jobOwnerChannel")]
    pub job_owner_channel: Option<String>,
    /// `channel` came from the session key, not from a flag: the key says where the session
    /// lives (its group policy), not that this turn arrived over that channel.
    #[serde(skip)]
    pub channel_from_key: bool,
    /// The channel the turn came over when a session key names another one (an operator's
    /// webchat turn in a Telegram group's session): only the turn's message provider, while
    /// `channel` is the key's, whose group and sender policy apply (OpenClaw takes the message
    /// provider as the policy's channel only when no key names one). Derived, never read from
    /// input; the resolved context carries it out.
    #[serde(skip)]
    pub turn_channel: Option<String>,
    /// No `toolsBySender` entry applies, a group's included (OpenClaw's `senderPolicyMode:
    /// "never"`: an owner's webchat turn). Set by the policy, not by a caller.
    #[serde(skip)]
    pub sender_rules_off: bool,
}

/// Where a scheduled job delivers its answer (OpenClaw's `delivery.mode`: `openclaw cron add
/// --no-deliver`, `--announce --channel CH --to TARGET`, `--webhook URL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScheduledDelivery {
    /// Nowhere (a chat the job names is still its turn's channel).
    None,
    /// To a chat: its channel is the turn's message provider.
    Announce,
    /// To a URL: the turn has no chat, and OpenClaw builds it no message tool.
    Webhook,
}

impl ScheduledDelivery {
    /// Every mode, in the order `--scheduled-delivery` and the console offer them.
    pub const ALL: [ScheduledDelivery; 3] = [
        ScheduledDelivery::None,
        ScheduledDelivery::Announce,
        ScheduledDelivery::Webhook,
    ];

    /// The mode as OpenClaw's `delivery.mode` writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ScheduledDelivery::None => "none",
            ScheduledDelivery::Announce => "announce",
            ScheduledDelivery::Webhook => "webhook",
        }
    }
}

impl std::str::FromStr for ScheduledDelivery {
    type Err = String;

    /// A mode as [`ScheduledDelivery::as_str`] writes it.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ScheduledDelivery::ALL
            .into_iter()
            .find(|mode| mode.as_str() == text.trim())
            .ok_or_else(|| format!("no delivery mode {text:?} (none, announce or webhook)"))
    }
}

/// What runs a turn: which path through OpenClaw it takes decides the tools a host builds (the
/// pack's `hostTools`: `github_identity_status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TurnHost {
    /// `openclaw agent --local`: OpenClaw's embedded run, no gateway.
    Local,
    /// A gateway's `agent` method: `openclaw agent` while a gateway runs, a non-owner's call,
    /// a spawned subagent, a paired node's transcript.
    AgentMethod,
    /// A gateway's reply to a message: a channel sender's, or a gateway client's `chat.send`.
    Reply,
    /// A scheduled job's turn, which the gateway's cron service runs.
    Scheduled,
}

impl TurnHost {
    /// How the turn is started, in words.
    pub fn describe(self) -> &'static str {
        match self {
            TurnHost::Local => "local (openclaw agent --local)",
            TurnHost::AgentMethod => "a gateway's agent method",
            TurnHost::Reply => "a gateway's reply to a message",
            TurnHost::Scheduled => "a scheduled job's turn (the gateway's cron service)",
        }
    }
}

/// Where a job an agent made finds its creator's channel (whose accounts and group policy it
/// reads) when the creator's session key names no group: a release's rule
/// (`Semantics::creator_channel_from_turn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreatorChannel {
    /// The channel the creator's own turn came over (2026.9's `ownerOrigin`).
    CreatorsTurn,
    /// The job's own turn's message provider: its delivery's channel (2026.8).
    JobsTurn,
}

impl CreatorChannel {
    /// The rule of a release whose pack says `creator_channel_from_turn`.
    pub fn of(creator_channel_from_turn: bool) -> CreatorChannel {
        match creator_channel_from_turn {
            true => CreatorChannel::CreatorsTurn,
            false => CreatorChannel::JobsTurn,
        }
    }
}

impl PolicyContext {
    /// What runs the turn. A spawned subagent's turn is started by its spawner through the
    /// agent method, whoever wrote to the spawner; a heartbeat, a sender's message and a
    /// client's `chat.send` are replies (the heartbeat runner dispatches its turn as one); a non-owner or `gateway_run` is the agent method (a local run
    /// is always its owner's); anything else is a local run. Read it from a context the
    /// session key has filled in ([`PolicyContext::with_session_key`]).
    pub fn turn_host(&self) -> TurnHost {
        if self.is_scheduled() {
            TurnHost::Scheduled
        } else if self.spawner_key().is_some() {
            TurnHost::AgentMethod
        } else if self.heartbeat
            || self.has_sender()
            || self.names_client()
            || self.is_chat_send_turn()
        {
            TurnHost::Reply
        } else if self.gateway_run || self.owner == Some(false) || self.is_node_turn() {
            TurnHost::AgentMethod
        } else {
            TurnHost::Local
        }
    }

    /// A spawn depth makes the context a subagent's (flags and config entries may give only
    /// the depth).
    pub fn with_depth_implying_subagent(mut self) -> PolicyContext {
        self.subagent = self.subagent || self.subagent_depth.is_some();
        self
    }

    /// Fills what the session key says (agent, channel, group, subagent and its depth) into
    /// the fields no flag set: explicit flags win over the key. OpenClaw derives the same from
    /// a session's key (see `session_key`).
    pub fn with_session_key(mut self) -> PolicyContext {
        let unset = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
        if self.names_client() && unset(&self.channel) {
            self.channel = Some(CHAT_SEND_CHANNEL.to_string());
        }
        let Some(key) = self.session_key.as_deref().filter(|k| !k.trim().is_empty()) else {
            return self.with_spawner_key();
        };
        let parts = crate::session_key::parse(key);
        if unset(&self.agent) {
            self.agent = parts.agent;
        }
        if unset(&self.channel) {
            self.channel_from_key = parts.channel.is_some();
            self.channel = parts.channel.clone();
        } else if let Some(key_channel) = parts.channel.clone() {
            self.take_keys_channel(key_channel);
        }
        // The key's group is a group of the key's channel only.
        let same_channel =
            self.channel.as_deref().map(|c| c.trim().to_lowercase()) == parts.channel;
        if unset(&self.group) && same_channel {
            self.group = parts.group;
        }
        if parts.subagent {
            self.subagent = true;
            if self.subagent_depth.is_none() {
                self.subagent_depth = Some(parts.subagent_depth.max(1));
            }
        }
        self.with_spawner_key()
    }

    /// The spawner's key (`spawned_by`), as OpenClaw reads it for a subagent: its channel and
    /// group when neither flags nor this session's key gave them, and a depth one below it.
    fn with_spawner_key(mut self) -> PolicyContext {
        let Some(key) = self.spawner_key().map(str::to_string) else {
            return self;
        };
        let parts = crate::session_key::parse(&key);
        let unset = |v: &Option<String>| v.as_deref().is_none_or(|s| s.trim().is_empty());
        if let Some(key_channel) = parts.channel.clone().filter(|_| !self.channel_from_key) {
            match unset(&self.channel) {
                true => {
                    self.channel_from_key = true;
                    self.channel = Some(key_channel);
                }
                false => self.take_keys_channel(key_channel),
            }
        }
        let same_channel =
            self.channel.as_deref().map(|c| c.trim().to_lowercase()) == parts.channel;
        if unset(&self.group) && same_channel {
            self.group = parts.group;
        }
        if unset(&self.agent) {
            self.agent = parts.agent;
        }
        self.subagent = true;
        if self.subagent_depth.is_none() {
            let spawner_depth = if parts.subagent {
                parts.subagent_depth.max(1)
            } else {
                0
            };
            self.subagent_depth = Some(spawner_depth + 1);
        }
        self
    }

    /// A key naming `key_channel` while the turn came over another channel: the key's channel
    /// is the policy's, the given one the turn's message provider.
    fn take_keys_channel(&mut self, key_channel: String) {
        let given = self.channel.as_deref().map(|c| c.trim().to_lowercase());
        if given.as_deref() == Some(key_channel.as_str()) {
            return;
        }
        self.turn_channel = self.channel.replace(key_channel);
        self.channel_from_key = true;
    }

    /// The spawner's session key, when one is given.
    pub fn spawner_key(&self) -> Option<&str> {
        self.spawned_by
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
    }

    /// The context of the turn that spawned this one: the same model, sender and owner, in the
    /// spawner's session (its key decides its agent, channel, group and whether it is itself a
    /// subagent). `None` when nothing spawned this context.
    pub fn spawner(&self) -> Option<PolicyContext> {
        let key = self.spawner_key()?.to_string();
        let keyed_channel = self.channel_from_key;
        // The spawner's agent is its key's (a subagent may run as another agent).
        let agent = crate::session_key::parse(&key)
            .agent
            .or_else(|| self.agent.clone());
        let parent = PolicyContext {
            agent,
            session_key: Some(key),
            spawned_by: None,
            subagent: false,
            subagent_depth: None,
            channel: match keyed_channel {
                true => self.turn_channel.clone(),
                false => self.channel.clone(),
            },
            group: self.group.clone().filter(|_| !keyed_channel),
            channel_from_key: false,
            turn_channel: None,
            sender_rules_off: false,
            ..self.clone()
        };
        Some(parent.with_session_key())
    }

    /// The message provider the turn comes over: the channel when no session key named it (a
    /// key says where the session lives, not how the turn arrived), trimmed. Read it from a
    /// context the session key has filled in ([`PolicyContext::with_session_key`]).
    pub fn message_provider(&self) -> Option<&str> {
        let given = self.channel.as_deref().filter(|_| !self.channel_from_key);
        self.turn_channel
            .as_deref()
            .or(given)
            .map(str::trim)
            .filter(|c| !c.is_empty())
    }

    /// This context with no sender: a spawned subagent's own turn, whose sender (if the
    /// context names one) wrote to the spawner, not to it.
    pub fn without_sender(&self) -> PolicyContext {
        PolicyContext {
            sender_id: None,
            sender_e164: None,
            sender_username: None,
            sender_name: None,
            ..self.clone()
        }
    }

    /// Whether the context names the gateway client of its turn (by id or capabilities).
    pub fn names_client(&self) -> bool {
        self.client.as_deref().is_some_and(|c| !c.trim().is_empty())
            || self.client_caps.iter().any(|c| !c.trim().is_empty())
    }

    /// Whether the turn comes over OpenClaw's own chat (a gateway client's `chat.send`): its
    /// message provider is webchat. Read it from a context the session key has filled in.
    pub fn is_chat_send_turn(&self) -> bool {
        self.message_provider()
            .is_some_and(|p| p.eq_ignore_ascii_case(CHAT_SEND_CHANNEL))
    }

    /// Whether the turn is a paired node's (its message provider is `node`).
    pub fn is_node_turn(&self) -> bool {
        self.message_provider()
            .is_some_and(|p| p.eq_ignore_ascii_case(NODE_CHANNEL))
    }

    /// A job's tool cap as `--scheduled-tools` and `openclaw cron add --tools` write it:
    /// entries separated by commas or spaces; an empty text is the empty cap.
    pub fn tool_cap(written: &str) -> Vec<String> {
        written
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|e| !e.is_empty())
            .map(str::to_string)
            .collect()
    }

    /// Whether the turn is a scheduled job's ([`PolicyContext::scheduled_tools`]).
    pub fn is_scheduled(&self) -> bool {
        self.scheduled_tools.is_some()
    }

    /// The scheduled job's delivery: a chat when it names a channel and says no other mode,
    /// else its mode or `none`; `None` for a turn that is no scheduled job's.
    pub fn delivery(&self) -> Option<ScheduledDelivery> {
        if !self.is_scheduled() {
            return None;
        }
        Some(
            match (self.scheduled_delivery, self.message_provider().is_some()) {
                (Some(mode), _) => mode,
                (None, true) => ScheduledDelivery::Announce,
                (None, false) => ScheduledDelivery::None,
            },
        )
    }

    /// Why the context's job delivery cannot be: a webhook has no chat, and clawdeck cannot
    /// know which chat an announcement naming none goes to (OpenClaw takes the session's last
    /// one); `None` when it can.
    pub fn delivery_conflict(&self) -> Option<&'static str> {
        let names = |v: &Option<String>| v.as_deref().is_some_and(|c| !c.trim().is_empty());
        match self.scheduled_delivery? {
            ScheduledDelivery::Webhook if names(&self.channel) || names(&self.account) => Some(
                "--scheduled-delivery webhook takes no --channel or --account: a webhook job's turn has no chat",
            ),
            ScheduledDelivery::Announce if !names(&self.channel) => Some(
                "--scheduled-delivery announce needs --channel: OpenClaw would announce to the session's last chat, which clawdeck cannot see",
            ),
            _ => None,
        }
    }

    /// The session key of the agent's turn that created the scheduled job, when one is given
    /// and the turn is a scheduled job's (only a job has a maker).
    pub fn job_owner_key(&self) -> Option<&str> {
        self.job_owner
            .as_deref()
            .filter(|_| self.is_scheduled())
            .map(str::trim)
            .filter(|k| !k.is_empty())
    }

    /// The context a job an agent created reads its group policy in: its creator's session
    /// (that key's channel and group) and account, whatever session the job runs in
    /// (OpenClaw's `groupPolicySessionKey` and `ownerAccountId`); where the key names no group,
    /// the channel `from` says. `None` for any other turn.
    pub fn job_owner_context(&self, from: CreatorChannel) -> Option<PolicyContext> {
        let key = self.job_owner_key()?.to_string();
        let owner = PolicyContext {
            session_key: Some(key),
            spawned_by: None,
            channel: None,
            group: None,
            account: self.job_owner_account.clone(),
            channel_from_key: false,
            turn_channel: None,
            ..self.clone()
        };
        let mut owner = owner.with_session_key();
        if owner.channel.is_none() {
            // OpenClaw reads a channel from a group's key only; else the release's fallback.
            owner.channel = match from {
                CreatorChannel::CreatorsTurn => self.job_owner_turn_channel(),
                CreatorChannel::JobsTurn => self
                    .clone()
                    .with_session_key()
                    .message_provider()
                    .map(str::to_lowercase),
            };
        }
        Some(owner)
    }

    /// The channel the creator of a job an agent made wrote over (`job_owner_channel`, lower
    /// case), where it decides something: the creator's session key names no group's channel.
    /// `None` for any other turn.
    pub fn job_owner_turn_channel(&self) -> Option<String> {
        let key = self.job_owner_key()?;
        if crate::session_key::parse(key).channel.is_some() {
            return None;
        }
        self.job_owner_channel
            .as_deref()
            .map(|c| c.trim().to_lowercase())
            .filter(|c| !c.is_empty())
    }

    /// Whether the scheduled job's cap restricts its tools (OpenClaw's `toolPolicyRestrictsTools`
    /// of its `toolsAllow`): it names tools and not `*`. Such a run gets a minimal prompt
    /// without the skills catalog.
    pub fn cap_restricts(&self) -> bool {
        self.scheduled_tools
            .as_ref()
            .is_some_and(|cap| !cap.is_empty() && !cap.iter().any(|e| e.trim() == "*"))
    }

    /// Whether the turn runs in a cron session: its key's rest starts with `cron:` (OpenClaw's
    /// `isCronSessionKey`), or it is a scheduled job's turn in the job's own session (no key).
    pub fn in_cron_session(&self) -> bool {
        self.session_is(crate::session_key::is_cron)
    }

    /// Whether the turn runs in a cron job's own run session (`agent:<id>:cron:<job>:run:<run>`,
    /// OpenClaw's `isCronRunSessionKey`), as a scheduled job's turn does when no key names
    /// another.
    pub fn in_cron_run_session(&self) -> bool {
        self.session_is(crate::session_key::is_cron_run)
    }

    /// What `keyed` says of the session key; without a key, a scheduled job's turn runs in its
    /// own run session (a cron one) and any other turn in none.
    fn session_is(&self, keyed: fn(&str) -> bool) -> bool {
        match self.session_key.as_deref().filter(|k| !k.trim().is_empty()) {
            Some(key) => keyed(key),
            None => self.is_scheduled(),
        }
    }

    pub fn is_owner(&self) -> bool {
        self.owner.unwrap_or(true)
    }

    /// Whether the context names a sender (the run has a requester) by any of its identities.
    pub fn has_sender(&self) -> bool {
        [
            &self.sender_id,
            &self.sender_e164,
            &self.sender_username,
            &self.sender_name,
        ]
        .iter()
        .any(|s| s.as_deref().is_some_and(|s| !s.trim().is_empty()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyed(key: &str) -> PolicyContext {
        PolicyContext {
            session_key: Some(key.into()),
            ..PolicyContext::default()
        }
    }

    #[test]
    fn a_session_key_alone_sets_agent_channel_group() {
        let ctx = keyed("agent:ops:slack:channel:c0123abc").with_session_key();
        assert_eq!(ctx.agent.as_deref(), Some("ops"));
        assert_eq!(ctx.channel.as_deref(), Some("slack"));
        assert_eq!(ctx.group.as_deref(), Some("c0123abc"));
        assert!(!ctx.subagent);
        let sub = keyed("agent:main:subagent:a:subagent:b").with_session_key();
        assert!(sub.subagent);
        assert_eq!(sub.subagent_depth, Some(2));
    }

    #[test]
    fn explicit_fields_win_over_the_key() {
        let ctx = PolicyContext {
            agent: Some("main".into()),
            group: Some("c999".into()),
            subagent_depth: Some(3),
            ..keyed("agent:ops:slack:channel:c0123abc:thread:1.2")
        }
        .with_session_key();
        assert_eq!(ctx.agent.as_deref(), Some("main"));
        assert_eq!(ctx.channel.as_deref(), Some("slack"));
        assert_eq!(ctx.group.as_deref(), Some("c999"));
        // A turn over another channel (webchat into a Slack channel's session): the key's
        // channel and group are the policy's, the given channel the turn's message provider
        // (case webchat-turn-in-a-telegram-group).
        let other = PolicyContext {
            channel: Some("webchat".into()),
            ..keyed("agent:ops:slack:channel:c0123abc")
        }
        .with_session_key();
        assert_eq!(other.channel.as_deref(), Some("slack"));
        assert_eq!(other.group.as_deref(), Some("c0123abc"));
        assert_eq!(other.message_provider(), Some("webchat"));
        let same = PolicyContext {
            channel: Some("Slack".into()),
            ..keyed("agent:ops:slack:channel:c0123abc")
        }
        .with_session_key();
        assert_eq!(same.message_provider(), Some("Slack"));
        assert_eq!(same.turn_channel, None);
        let deep = PolicyContext {
            subagent_depth: Some(3),
            ..keyed("agent:main:subagent:a")
        }
        .with_session_key();
        assert_eq!(deep.subagent_depth, Some(3));
    }

    #[test]
    fn a_spawner_gives_group_depth_and_its_own_context() {
        let ctx = PolicyContext {
            spawned_by: Some("agent:ops:subagent:a".into()),
            owner: Some(false),
            ..keyed("agent:main:subagent:b")
        }
        .with_session_key();
        assert_eq!(ctx.agent.as_deref(), Some("main"));
        assert!(ctx.subagent);
        // The own key says depth 1; the key wins over the spawner's depth + 1.
        assert_eq!(ctx.subagent_depth, Some(1));
        let spawner = ctx.spawner().unwrap();
        assert_eq!(spawner.agent.as_deref(), Some("ops"));
        assert_eq!(spawner.subagent_depth, Some(1));
        assert_eq!(spawner.owner, Some(false));
        assert_eq!(spawner.spawned_by, None);
        let in_group = PolicyContext {
            spawned_by: Some("agent:main:telegram:group:-100abc".into()),
            ..PolicyContext::default()
        }
        .with_session_key();
        assert_eq!(in_group.channel.as_deref(), Some("telegram"));
        assert_eq!(in_group.group.as_deref(), Some("-100abc"));
        assert!(in_group.channel_from_key);
        assert_eq!(in_group.subagent_depth, Some(1));
        let deeper = PolicyContext {
            spawned_by: Some("agent:main:subagent:a".into()),
            ..PolicyContext::default()
        }
        .with_session_key();
        assert_eq!(deeper.subagent_depth, Some(2));
        assert_eq!(PolicyContext::default().spawner(), None);
    }

    #[test]
    fn a_job_an_agent_made_reads_its_groups_in_the_creators_session_and_account() {
        let job = PolicyContext {
            scheduled_tools: Some(vec!["read".into()]),
            session_key: Some("agent:main:telegram:group:-100888".into()),
            account: Some("alerts".into()),
            job_owner: Some(" agent:main:discord:group:42 ".into()),
            job_owner_account: Some("bot2".into()),
            ..PolicyContext::default()
        }
        .with_session_key();
        let owner = job.job_owner_context(CreatorChannel::CreatorsTurn).unwrap();
        assert_eq!(owner.channel.as_deref(), Some("discord"));
        assert_eq!(owner.group.as_deref(), Some("42"));
        assert_eq!(owner.account.as_deref(), Some("bot2"));
        // Still the job's turn: its sender rules stay off, its cap stays.
        assert!(owner.is_scheduled());
        // Only a scheduled job has an owner; a blank key names none.
        let not_scheduled = PolicyContext {
            scheduled_tools: None,
            ..job.clone()
        };
        assert_eq!(
            not_scheduled.job_owner_context(CreatorChannel::CreatorsTurn),
            None
        );
        let blank = PolicyContext {
            job_owner: Some("  ".into()),
            ..job
        };
        assert_eq!(blank.job_owner_context(CreatorChannel::CreatorsTurn), None);
    }

    #[test]
    fn the_creators_channel_counts_only_where_its_session_key_names_none() {
        let job = PolicyContext {
            scheduled_tools: Some(vec!["read".into()]),
            job_owner: Some("agent:main:main".into()),
            job_owner_account: Some("work".into()),
            job_owner_channel: Some(" Telegram ".into()),
            ..PolicyContext::default()
        };
        let owner = job.job_owner_context(CreatorChannel::CreatorsTurn).unwrap();
        assert_eq!(owner.channel.as_deref(), Some("telegram"));
        assert_eq!(owner.group, None);
        let over_no_channel = PolicyContext {
            job_owner_channel: None,
            ..job.clone()
        };
        assert_eq!(
            over_no_channel
                .job_owner_context(CreatorChannel::CreatorsTurn)
                .unwrap()
                .channel,
            None
        );
        // 2026.8 reads the job's own turn's channel instead: its delivery's.
        let announcing = PolicyContext {
            channel: Some("Telegram".into()),
            scheduled_delivery: Some(ScheduledDelivery::Announce),
            ..over_no_channel
        };
        let of = |from| announcing.job_owner_context(from).unwrap().channel;
        assert_eq!(of(CreatorChannel::JobsTurn).as_deref(), Some("telegram"));
        assert_eq!(of(CreatorChannel::CreatorsTurn), None);
        // A key naming a channel wins over the turn's.
        let in_a_group = PolicyContext {
            job_owner: Some("agent:main:discord:group:42".into()),
            ..job
        };
        let owner = in_a_group
            .job_owner_context(CreatorChannel::CreatorsTurn)
            .unwrap();
        assert_eq!(owner.channel.as_deref(), Some("discord"));
        assert_eq!(owner.group.as_deref(), Some("42"));
    }
}
