//! Tools only a gateway client's own turn gets (the pack's `clientCapabilities`). A turn that
//! `chat.send` starts carries the capabilities its client declared when it connected; no other
//! turn carries any (a local run, the gateway's `agent` method, a channel's message). OpenClaw
//! drops a tool whose required capabilities the client did not declare (`show_widget` needs
//! `inline-widgets`, `screen` `ui-commands`: `filterToolsByClientCaps`), and builds the task
//! suggestion tools only for an operator UI client (the Control UI, the TUI) with admin scope
//! that declares `task-suggestions` (dist/chat-send-handler-*.mjs).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use crate::context::PolicyContext;
use crate::tool::ToolSpec;

use super::Semantics;

/// What the pack says about client capabilities.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientCapabilities {
    /// The tools a client's capabilities decide, as they are sent then.
    #[serde(default)]
    pub tools: BTreeMap<String, ClientTool>,
    /// Client id → the capabilities that client declares (the Control UI, the TUI).
    #[serde(default)]
    pub clients: BTreeMap<String, Vec<String>>,
    /// The clients OpenClaw counts as an operator's UI.
    #[serde(default)]
    pub operator_ui_clients: Vec<String>,
    /// Which clients' turns get a skill library; none for releases without one.
    #[serde(default)]
    pub skill_library: Option<SkillLibraryRule>,
}

/// Which gateway clients' turns get a skill library (skill_workshop's workspace or personal
/// form): a client OpenClaw tracks gets the gateway owner's profile, which a library needs;
/// a connection in an untracked mode (the CLI's, a backend's, a probe's) gets none.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillLibraryRule {
    pub untracked_modes: Vec<String>,
}

/// An operator with admin scope authors in the workspace's skill library.
pub const WORKSPACE_LIBRARY: &str = "workspace";
/// Any other operator authors in their personal library.
pub const PERSONAL_LIBRARY: &str = "personal";

/// The mode OpenClaw's own client of `id` connects in (the browser clients as webchat, the TUI
/// as ui); any other client connects as a CLI does.
pub fn client_mode(id: &str) -> &'static str {
    match id {
        "openclaw-control-ui" | "openclaw-browser-copilot" | "webchat" | "webchat-ui" => "webchat",
        "openclaw-tui" => "ui",
        _ => "cli",
    }
}

/// Whether `id` is a browser client (the Control UI, the browser copilot), which connects with
/// its page's origin.
pub fn is_browser_client(id: &str) -> bool {
    matches!(id, "openclaw-control-ui" | "openclaw-browser-copilot")
}

/// One tool a client's capabilities decide.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientTool {
    /// Every one of these must be declared.
    #[serde(default)]
    pub caps: Vec<String>,
    /// Only an operator UI client gets it.
    #[serde(default)]
    pub operator_ui_client: bool,
    /// The scope the connection needs (`operator.admin`: the turn's sender is the owner).
    #[serde(default)]
    pub scope: Option<String>,
    pub description: String,
    pub parameters: Value,
}

/// The gateway client a context's turn comes from: its id as OpenClaw knows it and every
/// capability it declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnClient {
    pub id: Option<String>,
    pub caps: Vec<String>,
}

impl ClientCapabilities {
    /// The client id `name` means: a known id, or one without OpenClaw's `openclaw-` prefix
    /// (`control-ui`, `tui`); any other name as given, lower case.
    pub fn client_id(&self, name: &str) -> String {
        let name = name.trim().to_lowercase();
        let known = |id: &str| {
            self.clients.contains_key(id) || self.operator_ui_clients.iter().any(|c| c == id)
        };
        let prefixed = format!("openclaw-{name}");
        if !known(&name) && known(&prefixed) {
            return prefixed;
        }
        name
    }

    /// The client of `ctx`'s turn, `None` when it names none: its known capabilities and the
    /// ones the context adds.
    pub fn turn_client(&self, ctx: &PolicyContext) -> Option<TurnClient> {
        if !ctx.names_client() {
            return None;
        }
        let id = ctx
            .client
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .map(|c| self.client_id(c));
        let mut caps: Vec<String> = id
            .as_ref()
            .and_then(|id| self.clients.get(id))
            .cloned()
            .unwrap_or_default();
        for cap in &ctx.client_caps {
            let cap = cap.trim().to_lowercase();
            if !cap.is_empty() && !caps.contains(&cap) {
                caps.push(cap);
            }
        }
        Some(TurnClient { id, caps })
    }

    /// Whether `ctx`'s turn is a non-owner's `chat.send` from an operator UI client: OpenClaw
    /// names no sender for such a client (another client's id is its turn's sender), and
    /// without admin scope the turn has no operator's authority either, so it has no caller.
    pub fn operator_ui_guest(&self, ctx: &PolicyContext) -> bool {
        let operator_ui = self
            .turn_client(ctx)
            .is_some_and(|client| self.is_operator_ui(&client));
        ctx.is_chat_send_turn() && operator_ui && !ctx.is_owner()
    }

    /// The skill library `ctx`'s turn authors in ([`WORKSPACE_LIBRARY`] for an owner with admin
    /// scope, else [`PERSONAL_LIBRARY`]), `None` when it has none: only a person's `chat.send`
    /// turn (not a spawned subagent's) from a client OpenClaw tracks has one, assuming the
    /// gateway knows one user profile (with several, every operator authors personally).
    pub fn skill_library(&self, ctx: &PolicyContext) -> Option<&'static str> {
        let rule = self.skill_library.as_ref()?;
        if !ctx.is_chat_send_turn() || ctx.spawner_key().is_some() {
            return None;
        }
        let id = self.turn_client(ctx)?.id?;
        let tracked = !rule.untracked_modes.iter().any(|m| m == client_mode(&id));
        tracked.then_some(match ctx.is_owner() {
            true => WORKSPACE_LIBRARY,
            false => PERSONAL_LIBRARY,
        })
    }

    /// Whether `client` is one OpenClaw counts as an operator's UI.
    /// The id a `chat.send` turn's client passes as the turn's sender: a client that is no
    /// operator UI client, when the context names no sender and no spawner.
    pub fn client_as_sender(&self, ctx: &PolicyContext) -> Option<String> {
        if ctx.has_sender() || ctx.spawner_key().is_some() || !ctx.is_chat_send_turn() {
            return None;
        }
        let client = self.turn_client(ctx)?;
        if self.is_operator_ui(&client) {
            return None;
        }
        client.id
    }

    fn is_operator_ui(&self, client: &TurnClient) -> bool {
        client
            .id
            .as_ref()
            .is_some_and(|id| self.operator_ui_clients.contains(id))
    }

    /// Why the turn of `ctx` (its client `client`) lacks tool `name`, `None` when it has it
    /// (or the tool is not one a client decides).
    pub fn lacks(&self, name: &str, ctx: &PolicyContext, client: &TurnClient) -> Option<String> {
        let tool = self.tools.get(name)?;
        if !ctx.is_chat_send_turn() {
            let provider = ctx.message_provider().map(str::to_lowercase);
            return Some(format!(
                "only a chat.send turn (webchat) carries its gateway client's capabilities; this \
                 turn comes over {}",
                provider.as_deref().unwrap_or("no channel")
            ));
        }
        let who = match &client.id {
            Some(id) => format!("the turn's gateway client {id}"),
            None => "the turn's gateway client".to_string(),
        };
        let missing: Vec<&str> = tool
            .caps
            .iter()
            .filter(|cap| !client.caps.contains(cap))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            return Some(format!("{who} does not declare {}", missing.join(", ")));
        }
        if tool.operator_ui_client && !self.is_operator_ui(client) {
            return Some(format!(
                "{who} is not an operator UI client ({})",
                self.operator_ui_clients.join(", ")
            ));
        }
        match &tool.scope {
            Some(scope) if !ctx.is_owner() => Some(format!(
                "the turn's connection lacks {scope} (the sender is not the owner)"
            )),
            _ => None,
        }
    }

    /// What brings tool `name`, in words, when a client decides it.
    pub fn what_brings(&self, name: &str) -> Option<String> {
        let tool = self.tools.get(name)?;
        let declaring: Vec<&str> = self
            .clients
            .iter()
            .filter(|(_, caps)| tool.caps.iter().all(|c| caps.contains(c)))
            .filter(|(id, _)| !tool.operator_ui_client || self.operator_ui_clients.contains(id))
            .map(|(id, _)| id.as_str())
            .collect();
        let mut brings = format!(
            "a chat.send turn whose gateway client declares {}",
            tool.caps.join(", ")
        );
        if tool.operator_ui_client {
            brings.push_str(", from an operator UI client");
        }
        if let Some(scope) = &tool.scope {
            brings.push_str(&format!(" with {scope} (the owner)"));
        }
        let named = match declaring.as_slice() {
            [] => " (name the client with --client and its capabilities with --client-cap)"
                .to_string(),
            ids => format!(" ({} does: --client {})", ids.join(", "), short_id(ids[0])),
        };
        Some(brings + &named)
    }
}

/// A client id without OpenClaw's prefix, as `--client` takes it.
fn short_id(id: &str) -> &str {
    id.strip_prefix("openclaw-").unwrap_or(id)
}

impl Semantics {
    /// Whether tool `name` is one a gateway client's capabilities decide.
    pub fn needs_client(&self, name: &str) -> bool {
        self.client_capabilities.tools.contains_key(name)
    }

    /// The tools a client's capabilities decide, as they are sent then; those `already` names
    /// are left out. Every registry holds them: whether a turn has them depends on its client
    /// (the policy's switches and [`crate::policy::resolve`]); a config key may switch one off
    /// (the pack's `switches`: the canvas host's for show_widget).
    pub fn client_tools(&self, already: &[String]) -> Vec<ToolSpec> {
        self.conditional_specs
            .iter()
            .filter(|spec| !already.contains(&spec.name))
            .filter_map(|spec| {
                let tool = self.client_capabilities.tools.get(&spec.name)?;
                let mut spec = spec.clone();
                spec.description = tool.description.clone();
                spec.parameters = tool.parameters.clone();
                Some(spec)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn caps() -> ClientCapabilities {
        serde_json::from_value(json!({
            "tools": {
                "show_widget": {"caps": ["inline-widgets"], "description": "w", "parameters": {}},
                "suggest_task": {"caps": ["task-suggestions"], "operatorUiClient": true,
                                 "scope": "operator.admin", "description": "s", "parameters": {}}
            },
            "clients": {
                "openclaw-control-ui": ["inline-widgets", "task-suggestions"],
                "openclaw-tui": ["task-suggestions"]
            },
            "operatorUiClients": ["openclaw-control-ui", "openclaw-tui"]
        }))
        .unwrap()
    }

    fn webchat(client: Option<&str>, extra: &[&str]) -> PolicyContext {
        PolicyContext {
            client: client.map(str::to_string),
            client_caps: extra.iter().map(|c| c.to_string()).collect(),
            ..PolicyContext::default()
        }
        .with_session_key()
    }

    #[test]
    fn a_short_name_means_the_known_client_and_brings_its_capabilities() {
        let caps = caps();
        let client = caps.turn_client(&webchat(Some("control-ui"), &[])).unwrap();
        assert_eq!(client.id.as_deref(), Some("openclaw-control-ui"));
        assert_eq!(client.caps, ["inline-widgets", "task-suggestions"]);
        let ctx = webchat(Some("control-ui"), &[]);
        assert_eq!(ctx.message_provider(), Some("webchat"));
        assert_eq!(caps.lacks("show_widget", &ctx, &client), None);
        assert_eq!(caps.lacks("suggest_task", &ctx, &client), None);
        assert_eq!(caps.turn_client(&PolicyContext::default()), None);
    }

    #[test]
    fn a_tracked_clients_turn_authors_in_the_owners_or_a_personal_library() {
        let mut caps = caps();
        assert_eq!(caps.skill_library(&webchat(Some("control-ui"), &[])), None);
        caps.skill_library = Some(SkillLibraryRule {
            untracked_modes: vec!["cli".into(), "backend".into(), "probe".into()],
        });
        let admin = webchat(Some("control-ui"), &[]);
        assert_eq!(caps.skill_library(&admin), Some(WORKSPACE_LIBRARY));
        let guest = PolicyContext {
            owner: Some(false),
            ..webchat(Some("tui"), &[])
        };
        assert_eq!(caps.skill_library(&guest), Some(PERSONAL_LIBRARY));
        // clawdeck's own client connects as a CLI does: no profile, no library.
        assert_eq!(
            caps.skill_library(&webchat(None, &["inline-widgets"])),
            None
        );
        assert_eq!(caps.skill_library(&webchat(Some("my-bot"), &[])), None);
        let spawned = PolicyContext {
            spawned_by: Some("agent:main:main".into()),
            ..webchat(Some("control-ui"), &[])
        };
        assert_eq!(caps.skill_library(&spawned), None);
    }

    #[test]
    fn each_missing_condition_is_the_reason() {
        let caps = caps();
        let tui = webchat(Some("tui"), &[]);
        let client = caps.turn_client(&tui).unwrap();
        let reason = caps.lacks("show_widget", &tui, &client).unwrap();
        assert_eq!(
            reason,
            "the turn's gateway client openclaw-tui does not declare inline-widgets"
        );
        // A client that is no operator UI gets no task suggestions, whatever it declares.
        let cli = webchat(Some("cli"), &["task-suggestions", "inline-widgets"]);
        let client = caps.turn_client(&cli).unwrap();
        assert_eq!(caps.lacks("show_widget", &cli, &client), None);
        let reason = caps.lacks("suggest_task", &cli, &client).unwrap();
        assert!(reason.contains("not an operator UI client"), "{reason}");
        // Without admin scope (not the owner).
        let guest = PolicyContext {
            owner: Some(false),
            ..webchat(Some("control-ui"), &[])
        };
        let client = caps.turn_client(&guest).unwrap();
        let reason = caps.lacks("suggest_task", &guest, &client).unwrap();
        assert!(reason.contains("operator.admin"), "{reason}");
        // A turn over another channel carries no client's capabilities.
        let telegram = PolicyContext {
            channel: Some("telegram".into()),
            ..webchat(Some("control-ui"), &[])
        };
        let client = caps.turn_client(&telegram).unwrap();
        let reason = caps.lacks("show_widget", &telegram, &client).unwrap();
        assert!(reason.contains("comes over telegram"), "{reason}");
    }

    #[test]
    fn a_client_that_is_no_operator_ui_is_its_turns_sender() {
        let caps = caps();
        assert_eq!(
            caps.client_as_sender(&webchat(Some("cli"), &[])).as_deref(),
            Some("cli")
        );
        // An operator UI client names no sender; nor does a turn the context names one for.
        assert_eq!(caps.client_as_sender(&webchat(Some("tui"), &[])), None);
        let named = PolicyContext {
            sender_id: Some("42".into()),
            ..webchat(Some("cli"), &[])
        };
        assert_eq!(caps.client_as_sender(&named), None);
        assert_eq!(caps.client_as_sender(&webchat(None, &[])), None);
    }

    #[test]
    fn what_brings_names_the_clients_that_declare_it() {
        let caps = caps();
        let brings = caps.what_brings("show_widget").unwrap();
        assert!(brings.contains("declares inline-widgets"), "{brings}");
        assert!(brings.contains("--client control-ui"), "{brings}");
        let brings = caps.what_brings("suggest_task").unwrap();
        assert!(brings.contains("operator.admin"), "{brings}");
        assert!(
            brings.contains("openclaw-control-ui, openclaw-tui"),
            "{brings}"
        );
        assert_eq!(caps.what_brings("read"), None);
    }
}
