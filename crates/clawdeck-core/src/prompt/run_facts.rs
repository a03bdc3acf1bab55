//! What of a run decides the tools' descriptions beyond which tools are visible.

use crate::policy::ResolvedContext;

/// What of the run decides descriptions beyond the visible tools.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct RunFacts<'a> {
    pub sandboxed: bool,
    pub subagent: bool,
    /// The profiles leave the gateway tool its config reads.
    pub gateway_config_reads: bool,
    /// The run's model takes images, as the config declares it.
    pub model_takes_images: bool,
    /// OpenClaw's Code Mode engages for the run.
    pub code_mode: bool,
    /// Whether the run's swarm globals are on (`None`: the pack does not model them): the
    /// tools they change take the other form when it is not the release's default.
    pub swarm: Option<bool>,
    /// The budgets Code Mode's exec description states for the run.
    pub code_mode_budgets: Option<crate::semantics::CodeModeBudgets>,
    /// The turn is a gateway client's chat.send (webchat), which OpenClaw's reply pipeline
    /// runs: it words message and the prompt for that conversation.
    pub webchat_turn: bool,
    /// The turn runs in webchat, which words message (and skill_workshop) for that chat: a
    /// webchat turn, or a turn of a gateway's agent method that names no channel where the
    /// release runs those in webchat (2026.8's `gatewayAgentTurnChannel`).
    pub webchat_forms: bool,
    /// The turn's reply goes through the message tool (a heartbeat's where
    /// `messages.visibleReplies` says so), which words message for that on 2026.8.
    pub message_tool_reply: bool,
    /// The turn keeps the widget tool pinned-only (a scheduled job's), which words it so.
    pub pinned_widget: bool,
    /// OpenClaw entitles the turn to manage automations (a Control UI admin's, a channel
    /// owner's), which gives automations its management form.
    pub automation_management: bool,
    /// The skill library the turn authors in (`workspace`, `personal`), which decides
    /// skill_workshop's form.
    pub skill_library: Option<&'static str>,
    /// The channel a gateway's turn talks in (its message provider: a sender's channel, an
    /// announcing job's chat's), which words message for a chat of that channel.
    pub current_channel: Option<&'a str>,
    /// The chat the message tool talks in: a webchat turn's session key's chat of another
    /// channel (OpenClaw's message tool takes it for the turn's, resolveEffectiveCurrentChannelContext),
    /// else the current channel.
    pub message_chat: Option<&'a str>,
    /// The run's skills prompt lists a skill: Code Mode's `skills` global then has something
    /// to read, and exec's description says so. Known once the skills are resolved.
    pub skills_listed: bool,
    /// How the turn's channel plugins find their secret references: resolved when a gateway
    /// runs the turn (it resolved them when it started), as written in `openclaw agent --local`.
    pub secret_refs: crate::semantics::SecretRefs,
    /// The turn's sender is confirmed as the owner (OpenClaw's `senderIsOwner === true`): a
    /// scheduled job's turn names none, though it keeps the owner-only tools.
    pub sender_is_owner: bool,
    /// The channel account the turn's chat is reached through (a sender's, an announcing job's
    /// delivery's): OpenClaw asks the other channels for their actions with it.
    pub chat_account: Option<&'a str>,
}

impl<'a> RunFacts<'a> {
    /// The facts of a resolved context whose own context is `ctx` (the turn's channel, its
    /// client and sender).
    pub fn of_turn(
        semantics: &crate::semantics::Semantics,
        resolved: &ResolvedContext,
        ctx: &'a crate::context::PolicyContext,
    ) -> Self {
        let webchat_turn = ctx.is_chat_send_turn() && ctx.spawner_key().is_none();
        let agent_turn_in_webchat = semantics
            .agent_method_channel(ctx)
            .is_some_and(|c| c.eq_ignore_ascii_case(crate::context::CHAT_SEND_CHANNEL));
        // Such a turn in a session whose key names a channel words message for that channel's
        // chats, not for webchat (seen on 2026.8.2 in a Telegram group's session).
        let key_channel = ctx
            .channel
            .as_deref()
            .filter(|_| agent_turn_in_webchat && ctx.channel_from_key);
        // A chat.send turn in a session whose key names another channel's chat: message talks
        // in that chat (2026.8.2 and 2026.9.6 in a Telegram group's session:
        // webchat-turn-in-a-telegram-group); the other tools keep webchat.
        let current_channel = ctx
            .message_provider()
            .or(key_channel)
            .filter(|_| resolved.turn != crate::context::TurnHost::Local);
        let keys_chat = ctx.channel.as_deref().filter(|c| {
            webchat_turn
                && ctx.channel_from_key
                && !c.eq_ignore_ascii_case(crate::context::CHAT_SEND_CHANNEL)
        });
        RunFacts {
            message_chat: keys_chat.or(current_channel),
            webchat_turn,
            webchat_forms: webchat_turn || (agent_turn_in_webchat && key_channel.is_none()),
            automation_management: semantics
                .automation_management_grant(ctx, resolved.owner)
                .is_some(),
            skill_library: semantics.client_capabilities.skill_library(ctx),
            // A local run (`openclaw agent --local`) has no chat to talk in.
            current_channel,
            sender_is_owner: resolved.owner && !ctx.is_scheduled(),
            chat_account: ctx.account.as_deref(),
            ..RunFacts::of(resolved)
        }
    }

    /// A gateway runs the turn: it started the configured channels when it started (and
    /// resolved their secret references then), unlike `openclaw agent --local`.
    pub fn channels_started(&self) -> bool {
        self.secret_refs == crate::semantics::SecretRefs::Resolved
    }

    /// The facts of a resolved context.
    pub fn of(resolved: &ResolvedContext) -> Self {
        RunFacts {
            sandboxed: resolved.sandboxed,
            subagent: resolved.subagent,
            gateway_config_reads: resolved.gateway_config_reads,
            model_takes_images: resolved
                .model_input
                .as_ref()
                .is_some_and(|i| i.takes_images),
            code_mode: resolved.code_mode.as_ref().is_some_and(|c| c.engaged),
            code_mode_budgets: resolved.code_mode.as_ref().and_then(|c| c.budgets),
            swarm: resolved.swarm,
            webchat_turn: false,
            webchat_forms: false,
            message_tool_reply: resolved.message_tool_reply,
            pinned_widget: resolved.pinned_widget,
            automation_management: false,
            skill_library: None,
            current_channel: None,
            message_chat: None,
            skills_listed: false,
            secret_refs: if resolved.turn == crate::context::TurnHost::Local {
                crate::semantics::SecretRefs::AsWritten
            } else {
                crate::semantics::SecretRefs::Resolved
            },
            sender_is_owner: resolved.owner,
            chat_account: None,
        }
    }
}
