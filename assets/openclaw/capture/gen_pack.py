#!/usr/bin/env python3
"""Builds assets/openclaw/2026.9.json from recorded model requests (real openclaw 2026.9.6 + mock LLM)
and the data dumped from its dist (extract.json, catalog.json from tools.catalog)."""
import json, os, sys
OUT = "/tmp/truth/out"
ex = json.load(open("/tmp/truth/extract.json"))
catalog = json.load(open("/tmp/truth/catalog.json")) if os.path.exists("/tmp/truth/catalog.json") else None

def req(name):
    return json.loads(open(f"{OUT}/{name}.jsonl").readline())["request"]

full = req("full_nots")
default = req("default")
full_tools = {t["function"]["name"]: t["function"] for t in full["tools"]}
default_names = [t["function"]["name"] for t in default["tools"]]
# deferred list from the default system prompt
sp = default["messages"][0]["content"]
deferred = []
owner_of = {}
lines = sp.split("\n")
i = lines.index("Available deferred-schema tools:")
for l in lines[i+1:]:
    if not l.startswith("- "):
        break
    head = l[2:].split(":", 1)[0]
    name, owner = head.split(" (")
    owner = owner.rstrip(")")
    deferred.append(name); owner_of[name] = owner

sections = {}
summary = {}
for s in ex["sections"]:
    for t in s["tools"]:
        sections[t["id"]] = s["id"]; summary[t["id"]] = t["description"]
core_def_order = [t["id"] for s in ex["sections"] for t in s["tools"]]
profiles_of = {tid: [p for p in ("minimal", "coding", "messaging") if tid in ex["profiles"][p]["allow"]] for tid in core_def_order}
openclaw_group = set(ex["groups"]["group:openclaw"])
labels = {}
eff = json.load(open("/tmp/truth/effective.json"))
for g in eff["groups"]:
    for t in g["tools"]:
        labels[t["id"]] = t["label"]
catalog_meta = {}
if catalog:
    for g in catalog.get("groups", []):
        for t in g.get("tools", []):
            labels.setdefault(t["id"], t.get("label"))
            catalog_meta[t["id"]] = t

NON_OWNER = ["automations", "gateway", "plugins", "sessions", "screen", "terminal", "portal",
             "conversations_list", "conversations_send", "conversations_turn", "nodes", "computer",
             "mobile_ui", "openclaw",
             # memory-core registers intent only for owners (createLazyStandingIntentTool).
             "intent"]

REQUIRES = {
    "code_execution": "a code-execution provider (xAI remote analysis); absent from the default run",
    "x_search": "the xAI search provider; absent from the default run",
    "github_identity_status": "a run with GitHub publication configured (githubPublicationAvailable)",
    "github_publish": "a run where GitHub publication is available (githubPublicationAvailable: true)",
    "suggest_task": "a gateway-run session with task suggestions delivered by the gateway (not the embedded runner)",
    "dismiss_task": "a gateway-run session with task suggestions delivered by the gateway (not the embedded runner)",
    "screen": "an operator web UI session (Control UI); absent from the embedded CLI run",
    "show_widget": "the core canvas host enabled, a registered widget kind, or a channel widget presenter",
    "heartbeat_respond": "a heartbeat-triggered run",
    "computer": "a gateway-hosted session (listed by tools.effective for agent:main:explicit:g1; absent from openclaw agent --local)",
    "view_image": "a model whose input includes images (vision); direct-only then",
    "image_generate": "an image-generation provider configured (optional media tool)",
    "music_generate": "a music-generation provider configured (optional media tool)",
    "video_generate": "a video-generation provider configured (optional media tool)",
    "pdf": "a PDF-capable model configured (optional media tool) and an agent dir",
    "terminal": "a run that is not sandboxed",
    "portal": "a run that is not sandboxed",
}
DIRECT_ONLY = ["computer", "heartbeat_respond", "openclaw", "sessions_yield", "structured_output", "view_image"]
CORE_CODING = ["read", "write", "edit", "ls", "apply_patch", "exec", "process"]

import glob
PLUGIN_OF, PLUGIN_PROFILES = {}, {}
for m in glob.glob(os.path.expanduser("~/.cache/realclaw/openclaw/node_modules/openclaw/dist/extensions/*/openclaw.plugin.json")):
    d = json.load(open(m))
    for t in d.get("contracts", {}).get("tools", []) or []:
        PLUGIN_OF.setdefault(t, d["id"])
    for t, meta in (d.get("toolMetadata") or {}).items():
        if meta.get("profiles"): PLUGIN_PROFILES[t] = meta["profiles"]
names = sorted(set(full_tools) | set(core_def_order))
tools = []
for n in names:
    f = full_tools.get(n)
    plugin = owner_of.get(n) if owner_of.get(n) not in (None, "core") else PLUGIN_OF.get(n) if n not in sections else None
    core = plugin is None
    entry = {"name": n,
             "label": labels.get(n) or (catalog_meta.get(n, {}).get("label")) or n,
             "summary": summary.get(n) or (f["description"].split(". ")[0] if f else ""),
             "description": f["description"] if f else None,
             "section": sections.get(n),
             "profiles": profiles_of.get(n) or PLUGIN_PROFILES.get(n, []),
             "includeInOpenClawGroup": n in openclaw_group,
             "ownerOnly": n in NON_OWNER,
             "source": "core" if core else f"plugin:{plugin}" if plugin else "core",
             "parameters": f["parameters"] if f else None}
    if not f:
        entry["requires"] = REQUIRES.get(n, "absent from the default 2026.9.6 run; condition not determined")
    elif n in REQUIRES:
        entry["requires"] = REQUIRES[n]
    if plugin:
        entry["plugin"] = plugin
    entry["inDefaultRun"] = f is not None
    entry["catalogMode"] = "direct-only" if n in DIRECT_ONLY else ("core-coding" if n in CORE_CODING else "catalog")
    tools.append(entry)

meta_tools = {t["function"]["name"]: t["function"] for t in default["tools"] if t["function"]["name"].startswith("tool_")}
groups = dict(ex["groups"])
profiles = {p: ex["profiles"][p]["allow"] for p in ("minimal", "coding", "messaging")}
profiles["full"] = None
start = sp.index("## Tooling"); end = sp.index("## Tool Call Style")
tooling_ts = sp[start:end]
fsp = full["messages"][0]["content"]
tooling = fsp[fsp.index("## Tooling"):fsp.index("## Tool Call Style")]
tl = tooling.split("\n")
prompt_order, prompt_summary = [], {}
for l in tl[2:]:
    if not l.startswith("- "): break
    name, _, summ = l[2:].partition(": ")
    if summ: prompt_order.append(name); prompt_summary[name] = summ
tooling_footer = "\n".join(x for x in tl[2:] if not x.startswith("- "))
for t in tools:
    t["promptSummary"] = prompt_summary.get(t["name"])
pack = {
  "version": "2026.9",
  "capturedFrom": "openclaw 2026.9.6",
  "tools": tools,
  "groups": groups,
  "profiles": profiles,
  "defaultProfile": None,
  "aliases": {"bash": "exec", "apply-patch": "apply_patch", "cron": "automations", "update_plan": "progress_card"},
  "familyExpansions": {"canvas": ["show_widget"]},
  "applyPatchFollows": "write",
  "unknownOnlyAllowlist": "keep",
  "noToolsError": "No callable tools remain after resolving explicit tool allowlist ({requested}); no registered tools matched. Fix the allowlist or enable the plugin that registers the requested tool.",
  "noToolsErrorRequested": "{label}: {entries joined by ', '}; sources joined by '; '",
  "nonOwnerDeny": NON_OWNER,
  "subagent": {"alwaysDeny": ["gateway", "agents_list", "openclaw", "session_status", "progress_card", "automations", "message", "sessions_send", "conversations_list", "conversations_send", "conversations_turn"],
               "leafDeny": ["subagents", "sessions_list", "sessions_history", "sessions_search", "sessions_spawn"],
               "leafWhen": "depth >= maxSpawnDepth (depth 0 = main, 0 < depth < maxSpawnDepth = orchestrator)",
               "maxSpawnDepthKey": "agents.defaults.subagents.maxSpawnDepth",
               "defaultMaxSpawnDepth": 5,
               "configKey": "tools.subagents.tools",
               "sessionKeyShape": "agent:<id>:subagent:<key> (depth from the session store; a fresh key counts as depth 1)"},
  "primarySessionOnly": {"tools": ["ask_user", "secrets"], "rule": "only on a primary (bootstrap) session, never on subagent sessions, and dropped when tools.deny names them", "where": "dist/openclaw-tools-thu-J91q.mjs shouldIncludePrimarySessionToolForOpenClawTools"},
  "sandbox": {"defaultAllow": ex["defaultAllow"], "defaultDeny": ex["defaultDeny"],
              "viewImageFollowsAllow": True,
              "explicitAllowLiftsDefaultDeny": True,
              "unsandboxedOnly": ["terminal", "portal"]},
  "implicitAlsoAllow": None,
  "implicitAlsoAllowRemoved": {"tools.exec": ["exec", "process"], "tools.fs": ["read", "write", "edit"], "note": "no longer widens the profile (#47487); only a warning is logged"},
  "toolSearch": {"defaultEnabled": True, "configKey": "tools.toolSearch", "defaultMode": "tools",
                 "modes": {"tools": ["tool_search", "tool_describe", "tool_call"], "directory": ["tool_search", "tool_describe", "tool_call"], "code": ["tool_search_code"], "true": "code", "objectWithoutMode": "code"},
                 "disableWith": False,
                 "directTools": default_names,
                 "coreCodingTools": CORE_CODING,
                 "directOnlyTools": DIRECT_ONLY,
                 "metaTools": ["tool_search", "tool_describe", "tool_call"],
                 "metaToolSchemas": meta_tools,
                 "deferredInDefaultRun": deferred,
                 "directoryHeading": "Available deferred-schema tools:",
                 "directoryEntry": "- {name} ({owner}): {description compacted to 180 chars, '...' when cut}",
                 "directoryNotice": "Policy-approved MCP and client tools may also be discoverable through search.",
                 # directoryGuidance (the footer) comes from extract_rules.mjs in build_pack.py
                 "directToolsByMode": {m: [t["function"]["name"] for t in req(f)["tools"]] for m, f in (("tools", "default"), ("directory", "ts_directory"), ("code", "ts_code"))},
                 "codeModeToolSchema": next(t["function"] for t in req("ts_code")["tools"] if t["function"]["name"] == "tool_search_code"),
                 "directoryMaxChars": 18000,
                 "promptSection": sp[sp.index("### Deferred Tool Schemas"):sp.index("The AGENTS.md Tools section")]},
  "toolingPrompt": tooling,
  "toolingPromptRule": {"header": "## Tooling\nTools policy-filtered. Names case-sensitive; call exact.",
     "summaryOrder": prompt_order,
     "line": "- {name}: {promptSummary} for tools in summaryOrder (that order), then '- {name}' for every other visible tool sorted by name; with Tool Search the meta tools come last and the deferred directory follows",
     "footer": tooling_footer},
  "toolingPromptToolSearch": tooling_ts,
  "observed": {
    "byProviderLookup": "one entry applies: 'provider/model' first, else 'provider' (tests/fixtures/fidelity/by-provider-most-specific: openai/gpt-5 deny read wins over openai deny exec)",
    "toolsBySenderWildcardInCliRun": "a local CLI run (no sender) applies the agent's and the group's toolsBySender '*' entries but not the global tools.toolsBySender '*' entry (tests/fixtures/fidelity/tools-by-sender-wildcard)",
    "pluginToolProfiles": "plugin manifests' toolMetadata.<tool>.profiles put plugin tools into profiles: memory-core's intent is in coding and messaging",
    "implicitExecSection": "tools.exec with profile messaging does not bring exec/process (tests/fixtures/fidelity/implicit-exec-section-no-longer-widens)",
    "unknownOnlyAllowlist": "tools.allow ['nonexistent_tool'] makes `openclaw agent` exit 1 before any model request, printing noToolsError with requested = 'tools.allow: nonexistent_tool'",
    "subagentSessionKey": "agent:main:subagent:<x> is depth 1 (orchestrator with the default maxSpawnDepth 5): alwaysDeny plus ask_user/secrets (primarySessionOnly) are removed",
    "gatewayVsLocal": "a gateway session's tools.effective also lists computer and github_identity_status; the local CLI run lists transcripts instead",
    "sandbox": "agents.defaults.sandbox.mode 'all' without Docker: the run fails with SandboxProvisioningError before any request; tools.effective does not apply the sandbox policy"
  },
  "notes": {
    "catalog, sections, profiles, group:openclaw": "dist/tool-catalog-CLTpLFor.mjs (CORE_TOOL_DEFINITIONS, CORE_TOOL_PROFILES: coding/messaging also allow bundle-mcp)",
    "aliases": "dist/tool-policy-shared-auQCQEhM.mjs TOOL_NAME_ALIASES; update_plan->progress_card and canvas->show_widget in dist/tool-policy-YDdaK0oX.mjs",
    "applyPatchFollows": "dist/tool-policy-match-Bv2XOvEF.mjs createToolPolicyMatcher(writeAllowsApplyPatch)",
    "unknownOnlyAllowlist": "dist/tool-policy-pipeline-BjUxseTY.mjs only warns on unknown entries; dist/builtin-openclaw-q1hiFm14.mjs buildEmptyExplicitToolAllowlistError",
    "pipeline order": "dist/tool-policy-pipeline-BjUxseTY.mjs: profile, byProvider.profile, tools.allow, tools.byProvider.allow, agent allow, agent byProvider.allow, group, toolsBySender; then sandbox, subagent, owner-only (agent-tools-g36ho974.mjs)",
    "nonOwnerDeny": "dist/dangerous-tools-D5_2xo_6.mjs GATEWAY_OWNER_ONLY_CORE_TOOLS, applied when senderIsOwner === false (agent-tools-g36ho974.mjs); plus memory-core's intent, which its plugin registers only when senderIsOwner === true (dist/extensions/memory-core/index.js createLazyStandingIntentTool)",
    "subagent": "dist/agent-tools.policy-CN7PMMey.mjs SUBAGENT_TOOL_DENY_ALWAYS / SUBAGENT_TOOL_DENY_LEAF; role from dist/subagent-capabilities-BXadA2wG.mjs + validation-core (depth < maxSpawnDepth = orchestrator)",
    "sandbox": "dist/constants-D1dHTp_E.mjs DEFAULT_TOOL_ALLOW / DEFAULT_TOOL_DENY (+ channel ids); dist/tool-policy-C8ci7WKM.mjs resolveSandboxToolPolicyForAgent",
    "alsoAllow": "dist/sandbox-tool-policy-Dp4rlIlG.mjs pickSandboxToolPolicy: alsoAllow without allow means ['*', ...alsoAllow]",
    "toolSearch": "docs/tools/tool-search.md; dist/local-model-lean-CHSAjCEl.mjs (directory, direct-visible rules); core-tool-factory-descriptors-CGmz8OlS.mjs (core coding families)",
    "labels": "gateway tools.effective (agent:main:explicit:g1)",
    "tools, descriptions, parameters": "recorded: openclaw agent --local with tools.profile full, tools.toolSearch false (tests/fixtures/realclaw/2026.9.6/full-direct.json)"
  }
}
json.dump(pack, open(sys.argv[1], "w"), indent=1, ensure_ascii=False)
print(len(tools), "tools;", sum(t["inDefaultRun"] for t in tools), "in default run")
