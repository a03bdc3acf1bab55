//! What an OpenClaw session key says about its session: the agent, the channel and chat group
//! it talks in, whether it is a subagent and how deep, its thread. One parser for every place
//! that builds a context (CLI, console, verify, MCP), following OpenClaw 2026.9's own
//! (`parseAgentSessionKey`, `normalizeSessionKeyPreservingOpaquePeerIds`,
//! `resolveGroupContextFromSessionKey`, `isSubagentSessionKey`, `getSubagentDepth`,
//! `parseThreadSessionSuffix` in its dist).
//!
//! Shapes: `agent:<agent>:main`, `agent:<agent>:<channel>:group:<id>`,
//! `agent:<agent>:<channel>:channel:<id>`, either with `:thread:<id>`,
//! `agent:<agent>:subagent:<id>[:subagent:<id>...]`, `subagent:<id>`, and the same bodies
//! without `agent:<agent>:`.

/// A session key taken apart. Empty fields: the key does not say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionKeyParts {
    /// The agent (`agent:<id>:...`), lowercased as OpenClaw stores keys.
    pub agent: Option<String>,
    /// The channel of a group or channel conversation (`slack`, `telegram`, ...).
    pub channel: Option<String>,
    /// The conversation's kind as the key writes it: `group` or `channel`.
    pub peer_kind: Option<String>,
    /// The group (or channel) id as the key writes it (a key OpenClaw stored is lower-cased,
    /// except Signal group ids and Matrix room ids; a key given by hand keeps its case).
    pub group: Option<String>,
    /// The thread suffix (`:thread:<id>`), which does not change the group.
    pub thread: Option<String>,
    /// Whether the key is a subagent's (`subagent:` right after the agent, or first).
    pub subagent: bool,
    /// How many `subagent:` segments the key has (0 for a main or chat session).
    pub subagent_depth: u32,
}

/// What follows `agent:<agent>:` (OpenClaw's `parseAgentSessionKey(key).rest`), lower-cased;
/// `None` for a key of another shape.
pub fn agent_rest(key: &str) -> Option<String> {
    let lower = key.trim().to_lowercase();
    let (agent, rest) = lower.strip_prefix("agent:")?.split_once(':')?;
    (!agent.is_empty() && !rest.is_empty()).then(|| rest.to_string())
}

/// A cron session's key: `agent:<agent>:cron:...` (OpenClaw's `isCronSessionKey`).
pub fn is_cron(key: &str) -> bool {
    agent_rest(key).is_some_and(|rest| rest.starts_with("cron:"))
}

/// The job a cron session belongs to: `<job>` of `agent:<agent>:cron:<job>[:run:<run>]`.
pub fn cron_job_id(key: &str) -> Option<String> {
    let rest = agent_rest(key)?;
    let job = rest.strip_prefix("cron:")?.split(':').next()?;
    (!job.is_empty()).then(|| job.to_string())
}

/// A cron job's own run session: `agent:<agent>:cron:<job>:run:<run>[:...]` (OpenClaw's
/// `isCronRunSessionKey`).
pub fn is_cron_run(key: &str) -> bool {
    agent_rest(key).is_some_and(|rest| {
        let mut parts = rest.split(':');
        parts.next() == Some("cron")
            && parts.next().is_some_and(|job| !job.is_empty())
            && parts.next() == Some("run")
            && parts.next().is_some_and(|run| !run.is_empty())
    })
}

/// The session of the job a cron run session belongs to (`agent:<id>:cron:<job>` of
/// `agent:<id>:cron:<job>:run:<run>`); `None` for any other key.
pub fn cron_job_session(key: &str) -> Option<&str> {
    is_cron_run(key)
        .then(|| key.split_once(":run:").map(|(job, _)| job))
        .flatten()
}

/// The key as OpenClaw stores it: lowercased, but a Signal group id segment and a Matrix room
/// key's tail (up to a `:thread:`) keep their case.
pub fn normalize(key: &str) -> String {
    let raw = key.trim();
    let folded = raw.to_lowercase();
    if !folded.contains("signal:") && !folded.contains("matrix:") {
        return folded;
    }
    let mut spans = signal_group_spans(raw);
    spans.extend(matrix_room_spans(raw));
    spans.sort();
    let mut out = String::new();
    let mut cursor = 0;
    for (start, end) in spans {
        if start < cursor || end <= start {
            continue;
        }
        out.push_str(&raw[cursor..start].to_lowercase());
        out.push_str(&raw[start..end]);
        cursor = end;
    }
    out.push_str(&raw[cursor..].to_lowercase());
    out
}

/// Byte spans of each `signal:group:<id>` id (the segment after it, up to the next `:`).
fn signal_group_spans(raw: &str) -> Vec<(usize, usize)> {
    let lower = raw.to_ascii_lowercase();
    let needle = "signal:group:";
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(found) = lower[from..].find(needle) {
        let at = from + found;
        let starts_segment = at == 0 || lower.as_bytes()[at - 1] == b':';
        let id_start = at + needle.len();
        let id_end = lower[id_start..]
            .find(':')
            .map_or(raw.len(), |i| id_start + i);
        if starts_segment && id_end > id_start {
            let id = &raw[id_start..id_end];
            let lead = id.len() - id.trim_start().len();
            let trail = id.len() - id.trim_end().len();
            spans.push((id_start + lead, id_end - trail));
        }
        from = id_end.max(at + 1);
    }
    spans
}

/// The span of a Matrix room key's tail (`[agent:<a>:]matrix:channel|group:<room>`), and of
/// its thread id when it has one.
fn matrix_room_spans(raw: &str) -> Vec<(usize, usize)> {
    let lower = raw.to_ascii_lowercase();
    let mut at = 0;
    // `(?:(?:agent:[^:]*:)+:*)?` in OpenClaw's pattern.
    let mut wrapped = false;
    while lower[at..].starts_with("agent:") {
        match lower[at + 6..].find(':') {
            Some(i) => {
                at += 6 + i + 1;
                wrapped = true;
            }
            None => return Vec::new(),
        }
    }
    if wrapped {
        while lower[at..].starts_with(':') {
            at += 1;
        }
    }
    let tail_start = ["matrix:channel:", "matrix:group:"]
        .iter()
        .find(|p| lower[at..].starts_with(*p))
        .map(|p| at + p.len());
    let Some(tail_start) = tail_start.filter(|s| *s < raw.len()) else {
        return Vec::new();
    };
    match lower[tail_start..].rfind(":thread:") {
        None => vec![(tail_start, raw.len())],
        Some(i) => {
            let marker = tail_start + i;
            vec![(tail_start, marker), (marker + 8, raw.len())]
        }
    }
}

/// Takes a session key apart (see the module docs). Nothing here fails: a key of another shape
/// says only what it says (a legacy `main` key says nothing).
pub fn parse(key: &str) -> SessionKeyParts {
    let normalized = normalize(key);
    let mut parts = SessionKeyParts::default();
    if normalized.is_empty() {
        return parts;
    }
    let rest = match agent_and_rest(&normalized) {
        Some((agent, rest)) => {
            parts.agent = Some(agent.to_string());
            rest
        }
        None => normalized.as_str(),
    };
    parts.subagent = normalized.starts_with("subagent:") || rest.starts_with("subagent:");
    parts.subagent_depth = subagent_segments(rest);
    // The group comes from the key as given (OpenClaw's resolveGroupContextFromSessionKey reads
    // the run's key unnormalised: `agent:main:telegram:group:-100ABC` is group `-100ABC`).
    let raw = key.trim();
    let (base, thread) = split_thread(raw);
    parts.thread = thread;
    if let Some((channel, kind, group)) = conversation(base) {
        parts.channel = Some(channel);
        parts.peer_kind = Some(kind);
        parts.group = Some(group);
    }
    parts
}

/// `agent:<id>:<rest>` → (id, rest); `None` for any other shape (OpenClaw's
/// `parseAgentSessionKeyParts`: an empty id or rest, or a rest starting with `:`, is none).
fn agent_and_rest(key: &str) -> Option<(&str, &str)> {
    let body = key.strip_prefix("agent:")?;
    let (agent, rest) = body.split_once(':')?;
    let agent = agent.trim();
    (!agent.is_empty() && !rest.is_empty() && !rest.starts_with(':')).then_some((agent, rest))
}

/// `(^|:)subagent:` occurrences (OpenClaw's `getSubagentDepth`).
fn subagent_segments(rest: &str) -> u32 {
    let mut count = 0;
    let mut from = 0;
    while let Some(found) = rest[from..].find("subagent:") {
        let at = from + found;
        if at == 0 || rest.as_bytes()[at - 1] == b':' {
            count += 1;
        }
        from = at + "subagent:".len();
    }
    count
}

/// The key without its last `:thread:<id>`, and that id.
fn split_thread(key: &str) -> (&str, Option<String>) {
    match key.to_ascii_lowercase().rfind(":thread:") {
        Some(at) => {
            let thread = key[at + 8..].trim();
            (&key[..at], (!thread.is_empty()).then(|| thread.to_string()))
        }
        None => (key, None),
    }
}

/// A group or channel conversation named by the key (OpenClaw's
/// `parseRawSessionConversationRef`, else the looser reading of
/// `resolveGroupContextFromSessionKey` that also sees through a `subagent:` body).
fn conversation(key: &str) -> Option<(String, String, String)> {
    let raw: Vec<&str> = key.split(':').collect();
    let is_agent = |s: &str| s.trim().eq_ignore_ascii_case("agent");
    let wrapped = is_agent(raw[0]);
    let body: &[&str] = if wrapped && raw.len() >= 3 && !raw[1].trim().is_empty() {
        &raw[2..]
    } else if wrapped {
        &[]
    } else {
        &raw
    };
    if let Some(found) = channel_kind_id(body) {
        return Some(found);
    }
    // The looser reading: empty segments dropped, one leading `subagent` skipped.
    let mut loose: Vec<&str> = raw.iter().copied().filter(|s| !s.is_empty()).collect();
    if loose.first().is_some_and(|s| is_agent(s)) {
        loose = loose.split_off(2.min(loose.len()));
    }
    if loose
        .first()
        .is_some_and(|s| s.eq_ignore_ascii_case("subagent"))
    {
        loose.remove(0);
    }
    channel_kind_id(&loose)
}

/// `<channel>:group|channel:<id...>` at the start of `body`.
fn channel_kind_id(body: &[&str]) -> Option<(String, String, String)> {
    if body.len() < 3 || body[0].trim().eq_ignore_ascii_case("agent") || body[2].trim().is_empty() {
        return None;
    }
    let channel = body[0].trim().to_lowercase();
    let kind = body[1].trim().to_lowercase();
    if channel.is_empty() || (kind != "group" && kind != "channel") {
        return None;
    }
    let id = body[2..].join(":").trim().to_string();
    (!id.is_empty()).then_some((channel, kind, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group_of(key: &str) -> (Option<String>, Option<String>) {
        let p = parse(key);
        (p.channel, p.group)
    }

    #[test]
    fn a_slack_channel_key_names_agent_channel_and_group_as_written() {
        let p = parse("Agent:Main:Slack:channel:C0123ABC");
        assert_eq!(p.agent.as_deref(), Some("main"));
        assert_eq!(p.channel.as_deref(), Some("slack"));
        assert_eq!(p.peer_kind.as_deref(), Some("channel"));
        assert_eq!(p.group.as_deref(), Some("C0123ABC"));
        assert!(!p.subagent);
        assert_eq!(p.subagent_depth, 0);
    }

    #[test]
    fn group_keys_of_openclaws_own_shapes() {
        // buildAgentPeerSessionKey's group shape, a Telegram topic, a Discord channel.
        assert_eq!(
            group_of("agent:ops:telegram:group:-100123"),
            (Some("telegram".into()), Some("-100123".into()))
        );
        assert_eq!(
            group_of("agent:main:telegram:group:-100123:topic:7"),
            (Some("telegram".into()), Some("-100123:topic:7".into()))
        );
        assert_eq!(
            group_of("agent:main:discord:channel:123456789"),
            (Some("discord".into()), Some("123456789".into()))
        );
        // Without the agent wrapper (a request key).
        assert_eq!(
            group_of("whatsapp:group:12036@g.us"),
            (Some("whatsapp".into()), Some("12036@g.us".into()))
        );
    }

    #[test]
    fn a_thread_suffix_leaves_the_group() {
        let p = parse("agent:main:slack:channel:c0123abc:thread:1700000000.000100");
        assert_eq!(p.group.as_deref(), Some("c0123abc"));
        assert_eq!(p.thread.as_deref(), Some("1700000000.000100"));
    }

    #[test]
    fn signal_groups_and_matrix_rooms_keep_their_case_when_stored() {
        assert_eq!(
            normalize("Agent:Main:Signal:Group:AbC=+/x:Thread:T"),
            "agent:main:signal:group:AbC=+/x:thread:t"
        );
        assert_eq!(
            normalize("agent:main:matrix:channel:!Room:Ex.org:THREAD:$Ev"),
            "agent:main:matrix:channel:!Room:Ex.org:thread:$Ev"
        );
        assert_eq!(
            normalize("Agent:Main:Slack:Channel:C1"),
            "agent:main:slack:channel:c1"
        );
        let p = parse("agent:main:signal:group:AbC=+/x");
        assert_eq!(p.group.as_deref(), Some("AbC=+/x"));
        let m = parse("agent:Main:matrix:channel:!RoomId:example.org:thread:$Ev");
        assert_eq!(m.agent.as_deref(), Some("main"));
        assert_eq!(m.group.as_deref(), Some("!RoomId:example.org"));
        assert_eq!(m.thread.as_deref(), Some("$Ev"));
    }

    #[test]
    fn subagent_keys_and_their_depth() {
        let one = parse("agent:main:subagent:abc");
        assert!(one.subagent);
        assert_eq!(one.subagent_depth, 1);
        assert_eq!(one.channel, None);
        let two = parse("Agent:ops:SubAgent:a:subagent:b");
        assert_eq!(two.agent.as_deref(), Some("ops"));
        assert!(two.subagent);
        assert_eq!(two.subagent_depth, 2);
        let bare = parse("subagent:x");
        assert!(bare.subagent);
        assert_eq!(bare.agent, None);
        // A subagent spawned in a group keeps the group (the looser reading).
        let in_group = parse("agent:main:subagent:telegram:group:-100123");
        assert!(in_group.subagent);
        assert_eq!(in_group.group.as_deref(), Some("-100123"));
    }

    #[test]
    fn keys_that_name_no_group() {
        for key in [
            "agent:main:main",
            "main",
            "agent:main:telegram:direct:42",
            "agent:main:explicit:g1",
            "agent::slack:channel:c1",
            "agent:main:slack:channel:",
            "",
        ] {
            assert_eq!(parse(key).group, None, "{key}");
        }
        assert_eq!(parse("agent:main:main").agent.as_deref(), Some("main"));
        assert!(!parse("agent:subagent").subagent);
    }

    #[test]
    fn a_cron_session_names_its_job() {
        assert_eq!(
            cron_job_id("agent:main:cron:job-1").as_deref(),
            Some("job-1")
        );
        assert_eq!(
            cron_job_id("agent:ops:cron:job-1:run:r1").as_deref(),
            Some("job-1")
        );
        assert_eq!(cron_job_id("agent:main:cron:"), None);
        assert_eq!(cron_job_id("agent:main:telegram:group:cron:x"), None);
        assert_eq!(cron_job_id("agent:main:main"), None);
    }
}
