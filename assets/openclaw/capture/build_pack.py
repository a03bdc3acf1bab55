#!/usr/bin/env python3
"""build_pack.py: one release's semantics pack from what capture.sh recorded and read.

Captured (from WORK/runs/*.jsonl, the model requests of real runs, and WORK/rules.json, read from
the release's dist/ by extract_rules.mjs): the tools with the descriptions and schemas the model
receives, which are in the default run, their catalog section, summary and profiles, group:openclaw
membership, plugin ownership (the deferred directory, the plugins' manifests), the groups, the
profiles and the values a profile key may take, the sandbox defaults, the subagent deny lists and
default spawn depth, the owner-only tools, the HTTP deny list, how plugin tool allowlists match,
Tool Search's direct tools and prompt copy, the Tooling section, the tools only a gateway client
that declares the capabilities they need is sent (WORK/runs/client_caps.jsonl, a chat.send turn);
the automations form a Control UI administrator's turn is sent (WORK/runs/control_ui_admin.jsonl),
and skill_workshop's skill-library forms (that turn and a Control UI guest's, control_ui_guest).

Carried from the base pack (hand-checked rules a capture cannot read; each is kept only where the
release still has the tool, and copy tied to a description only where that description is
unchanged): aliases, the refusal texts, Tool Search's modes and footers, the description
fragments and schema variants, observed rules, notes. WORK/extra.json (optional, or --extra)
holds the release's own hand-checked facts and is laid over last.
"""
import argparse, glob, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from channel_forms import CHANNELS, channel_forms, recorded_request  # noqa: E402


def neighbours(base):
    """The tools whose absence changes another tool's description or schema in `base`."""
    out = set()
    for variants in base.get("schemaVariants", {}).values():
        out.update(v["whenAbsent"] for v in variants)
    for props in base.get("propertyRequires", {}).values():
        out.update(props.values())
    for frags in base.get("descriptionFragments", {}).values():
        for f in frags:
            out.update([f["requires"]] if f.get("requires") else [])
            out.update(f.get("listed", []))
    return sorted(out)


def catalog_model_inputs(extensions):
    """Provider id -> model id -> what it takes (`input`), from the manifests' model catalogs."""
    inputs = {}
    for manifest in sorted(glob.glob(os.path.join(extensions, "*", "openclaw.plugin.json"))):
        catalog = json.load(open(manifest)).get("modelCatalog") or {}
        for provider, entry in sorted((catalog.get("providers") or {}).items()):
            for model in entry.get("models") or []:
                taken = model.get("input")
                if isinstance(model.get("id"), str) and isinstance(taken, list) \
                        and all(isinstance(i, str) for i in taken):
                    inputs.setdefault(provider, {})[model["id"]] = taken
    return inputs


def model_id_normalization(extensions):
    """Provider id (lower case) -> how OpenClaw rewrites a model id before looking it up
    (`modelIdNormalization`: aliases, stripPrefixes, prefixWhenBare, ...), from the manifests."""
    policies = {}
    for manifest in sorted(glob.glob(os.path.join(extensions, "*", "openclaw.plugin.json"))):
        declared = json.load(open(manifest)).get("modelIdNormalization") or {}
        for provider, policy in sorted((declared.get("providers") or {}).items()):
            if isinstance(policy, dict):
                policies[provider.strip().lower()] = policy
    return policies


def code_mode_tiers(extensions):
    """Provider id -> model id -> its Code Mode tier (`compat.codeMode`), from the manifests'
    model catalogs."""
    tiers = {}
    for manifest in sorted(glob.glob(os.path.join(extensions, "*", "openclaw.plugin.json"))):
        catalog = json.load(open(manifest)).get("modelCatalog") or {}
        for provider, entry in sorted((catalog.get("providers") or {}).items()):
            for model in entry.get("models") or []:
                tier = (model.get("compat") or {}).get("codeMode")
                if isinstance(tier, str) and isinstance(model.get("id"), str):
                    tiers.setdefault(provider, {})[model["id"]] = tier
    return tiers


if len(sys.argv) == 3 and sys.argv[1] == "--preferred-model":
    # The first model a catalog marks "preferred", as provider/model (none: nothing printed).
    found = [f"{p}/{m}" for p, ms in code_mode_tiers(sys.argv[2]).items()
             for m, tier in ms.items() if tier == "preferred"]
    print(found[0] if found else "")
    sys.exit(0)

if len(sys.argv) in (3, 4) and sys.argv[1] == "--code-mode-chunks":
    # The tools a full-profile Code Mode run can call from code, a few per line as a JSON list's
    # entries (each line's run indexes all of them within the index's budget): the full_nots
    # run's but for the ones the code_mode run sends beside its exec and wait; with a SOURCE run
    # (plugins_on, media_on), the ones only that run has.
    def sent(name):
        path = os.path.join(sys.argv[2], "runs", f"{name}.jsonl")
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            return []
        return [t["function"]["name"] for t in json.loads(open(path).readline())["request"]["tools"]]
    source = sys.argv[3] if len(sys.argv) == 4 else "full_nots"
    direct = set(sent("code_mode")) - {"exec"}
    known = set(sent("full_nots")) if source != "full_nots" else set()
    callable_tools = [t for t in sent(source) if t not in direct and t not in known] if direct else []
    for i in range(0, len(callable_tools), 8):
        print(", ".join(json.dumps(t) for t in callable_tools[i:i + 8]))
    sys.exit(0)

if len(sys.argv) == 3 and sys.argv[1] == "--neighbours":
    print("\n".join(neighbours(json.load(open(sys.argv[2])))))
    sys.exit(0)

ap = argparse.ArgumentParser()
ap.add_argument("--version", required=True)
ap.add_argument("--work", required=True)
ap.add_argument("--base", required=True)
ap.add_argument("--extensions", required=True)
ap.add_argument("--extra")
ap.add_argument("--out", required=True)
ap.add_argument("--keep-channels", help="channels whose forms come from --base (not recorded)")
a = ap.parse_args()

base = json.load(open(a.base))
rules = json.load(open(os.path.join(a.work, "rules.json")))
base_tools = {t["name"]: t for t in base["tools"]}
series = ".".join(a.version.split(".")[:2])


def req(name):
    return recorded_request(a.work, name)


def fn(tool):
    return tool["function"]


full, default = req("full_nots"), req("default")
full_tools = {fn(t)["name"]: fn(t) for t in full["tools"]}
default_names = [fn(t)["name"] for t in default["tools"]]
# Tool Search's copy comes from the default run when the release turns it on by default, else
# from the run that turns it on.
search_on_by_default = any(n.startswith("tool_search") for n in default_names)
searched = default if search_on_by_default else req("ts_tools")
searched_names = [fn(t)["name"] for t in searched["tools"]]
sp = searched["messages"][0]["content"]

# The deferred directory of the default run names each deferred tool's owner.
deferred, owner_of = [], {}
lines = sp.split("\n")
if "Available deferred-schema tools:" in lines:
    for line in lines[lines.index("Available deferred-schema tools:") + 1:]:
        if not line.startswith("- "):
            break
        name, owner = line[2:].split(":", 1)[0].split(" (")
        deferred.append(name)
        owner_of[name] = owner.rstrip(")")

sections, summary = {}, {}
for s in rules["sections"]:
    for t in s["tools"]:
        sections[t["id"]] = s["id"]
        summary[t["id"]] = t["description"]
core_ids = [t["id"] for s in rules["sections"] for t in s["tools"]]
listed_profiles = [p for p in rules["profileValues"] if rules["profiles"].get(p) not in (None, ["*"])]
openclaw_group = set(rules["groups"].get("group:openclaw", []))

plugin_of, plugin_profiles, plugin_optional = {}, {}, set()
for manifest in sorted(glob.glob(os.path.join(a.extensions, "*", "openclaw.plugin.json"))):
    d = json.load(open(manifest))
    for t in (d.get("contracts") or {}).get("tools") or []:
        plugin_of.setdefault(t, d["id"])
    for t, meta in (d.get("toolMetadata") or {}).items():
        if meta.get("profiles"):
            plugin_profiles[t] = meta["profiles"]
        if meta.get("optional") is True:
            plugin_optional.add(t)

owner_only = list(rules["ownerOnlyCoreTools"])
# Plugin tools the base pack found owner-only (memory-core's intent) stay so while the release has them.
for name in base.get("nonOwnerDeny", []):
    if name not in owner_only and name in full_tools and name not in sections:
        owner_only.append(name)

tools = []
for n in sorted(set(full_tools) | set(core_ids)):
    f = full_tools.get(n)
    b = base_tools.get(n, {})
    owner = owner_of.get(n)
    plugin = owner if owner not in (None, "core") else (plugin_of.get(n) if n not in sections else None)
    entry = {
        "name": n,
        "label": b.get("label") or n,
        "summary": summary.get(n) or b.get("summary") or (f["description"].split(". ")[0] if f else ""),
        "description": f["description"] if f else None,
        "section": sections.get(n),
        "profiles": [p for p in listed_profiles if n in rules["profiles"][p]] or plugin_profiles.get(n, []),
        "includeInOpenClawGroup": n in openclaw_group,
        "ownerOnly": n in owner_only,
        "source": f"plugin:{plugin}" if plugin else "core",
        "parameters": f["parameters"] if f else None,
    }
    if not f:
        entry["requires"] = b.get("requires") or f"absent from the default {a.version} run; condition not determined"
    elif b.get("requires") and b.get("inDefaultRun") is not False:
        entry["requires"] = b["requires"]
    if plugin:
        entry["plugin"] = plugin
    entry["inDefaultRun"] = f is not None
    entry["catalogMode"] = b.get("catalogMode", "catalog")
    tools.append(entry)
# Tools the default run lacks that the run naming media models has: what they send then (they
# stay out of the default run; clawdeck builds them when a config names their model).
media_on = req("media_on")
for t in (media_on or {}).get("tools", []):
    f = fn(t)
    if f["name"] in full_tools or f["name"] in plugin_of:
        continue
    entry = next((e for e in tools if e["name"] == f["name"]), None)
    if entry is None:
        # A tool the release's catalog does not list (2026.8's pdf): no section, group or profile.
        entry = {
            "name": f["name"], "label": f["name"], "summary": f["description"].split(". ")[0],
            "section": None, "profiles": [], "includeInOpenClawGroup": False, "ownerOnly": False,
            "source": "core", "requires": "a media model named in agents.defaults (optional media tool)",
            "inDefaultRun": False, "catalogMode": "catalog",
        }
        tools.append(entry)
        tools.sort(key=lambda e: e["name"])
    entry["description"] = f["description"]
    entry["parameters"] = f["parameters"]
# xAI's remote tools stay out of the default run; what they send when the xai plugin builds
# them (the xai_tools run: both turned on, an xAI key).
xai_rules = rules.get("xaiTools")
if xai_rules:
    xai_sent = {fn(t)["name"]: fn(t) for t in (req("xai_tools") or {}).get("tools", [])}
    for name, key in xai_rules["tools"].items():
        entry = next((e for e in tools if e["name"] == name), None)
        if name not in xai_sent or entry is None:
            raise SystemExit(f"the xai_tools run does not send {name}, which {xai_rules['where']} builds")
        entry.update(description=xai_sent[name]["description"], parameters=xai_sent[name]["parameters"],
                     requires=f"the xai plugin: a run on an xAI model, or {key}.enabled: true; and an xAI key")
names = {t["name"] for t in tools}
recorded = {t["name"]: t["description"] for t in tools}

# A media tool also comes when a bundled provider plugin offering its capability has a
# credential (OpenClaw's hasSnapshotCapabilityAvailability): one of the environment variables
# its manifest's setup.providers lists for the capability's auth signals (metadata authSignals,
# else the provider id, its aliases and authProviders). Media understanding brings pdf and the
# image tool (view_image; image before 2026.9).
image_tool = "view_image" if "view_image" in names else "image"
MEDIA_CONTRACTS = {
    "imageGenerationProviders": ("imageGenerationProviderMetadata", ["image_generate"]),
    "videoGenerationProviders": ("videoGenerationProviderMetadata", ["video_generate"]),
    "musicGenerationProviders": ("musicGenerationProviderMetadata", ["music_generate"]),
    "mediaUnderstandingProviders": (None, ["pdf", image_tool]),
}
media_credentials = {}
# The providers whose stored auth profiles count as that capability's credential (the same
# auth signals, each normalized as listProfilesForProvider compares them), by (plugin, tool).
media_profile_providers = {}
# Every bundled plugin's model providers with the variables its setup names as their
# credentials: a configured model that takes images brings pdf and the image tool when its
# provider has one (hasConfiguredVisionModelAuthSignal).
provider_credentials = []
for manifest in sorted(glob.glob(os.path.join(a.extensions, "*", "openclaw.plugin.json"))):
    d = json.load(open(manifest))
    setup_env = {p["id"]: p.get("envVars") or [] for p in (d.get("setup") or {}).get("providers") or []}
    provider_credentials += [{"plugin": d["id"], "provider": p, "env": env}
                             for p, env in sorted(setup_env.items()) if env]
    for contract, (metadata_key, media_tools) in MEDIA_CONTRACTS.items():
        for provider in (d.get("contracts") or {}).get(contract) or []:
            meta = (d.get(metadata_key) or {}).get(provider, {}) if metadata_key else {}
            if any("providerBaseUrl" in s for s in meta.get("authSignals") or []):
                raise SystemExit(f"{manifest}: an auth signal guarded by providerBaseUrl, which the pack cannot say")
            signals = [s["provider"] for s in meta.get("authSignals") or []] or \
                [provider, *meta.get("aliases", []), *meta.get("authProviders", [])]
            env = [v for s in signals for v in setup_env.get(s, [])]
            for tool in media_tools:
                if tool not in names:
                    continue
                known = media_profile_providers.setdefault((d["id"], tool), [])
                known.extend(s.strip().lower() for s in signals if s.strip().lower() not in known)
                known = media_credentials.setdefault((d["id"], tool), [])
                known.extend(v for v in env if v not in known)

# Bundled plugins that are off by default: the tools the run that turns them all on adds, by
# plugin (OpenClaw builds them only while plugins.entries.<id>.enabled is true or a slot names
# the plugin).
off_by_default = {}
plugins_on = req("plugins_on")
for t in (plugins_on or {}).get("tools", []):
    f = fn(t)
    plugin = plugin_of.get(f["name"])
    if f["name"] in names or not plugin:
        continue
    off_by_default.setdefault(plugin, []).append({
        "name": f["name"],
        "optional": f["name"] in plugin_optional,
        "label": f["name"],
        "summary": f["description"].split(". ")[0],
        "description": f["description"],
        "section": None,
        "profiles": plugin_profiles.get(f["name"], []),
        "includeInOpenClawGroup": False,
        "ownerOnly": False,
        "source": f"plugin:{plugin}",
        "parameters": f["parameters"],
        "plugin": plugin,
        "inDefaultRun": False,
        "catalogMode": "catalog",
    })
for entries in off_by_default.values():
    entries.sort(key=lambda e: e["name"])


def unchanged(tool):
    """The release sends `tool` exactly as the base pack recorded it."""
    b = base_tools.get(tool)
    return tool in full_tools and b is not None and b.get("description") == full_tools[tool]["description"] \
        and b.get("parameters") == full_tools[tool]["parameters"]


def tooling(prompt):
    if "## Tooling" not in prompt:
        return None
    return prompt[prompt.index("## Tooling"):prompt.index("## Tool Call Style")]


fsp = full["messages"][0]["content"]
tooling_full = tooling(fsp)
order, prompt_summary = [], {}
tl = tooling_full.split("\n")
for line in tl[2:]:
    if not line.startswith("- "):
        break
    name, _, text = line[2:].partition(": ")
    if text:
        order.append(name)
        prompt_summary[name] = text
# Tools only other runs build (the media tools, the tools a gateway client's caps bring) have
# their Tooling summary there.
for extra_run in ("media_on", "vision_model", "client_caps", "xai_tools"):
    extra_prompt = (req(extra_run) or {}).get("messages", [{}])[0].get("content", "")
    for line in (tooling(extra_prompt) or "").split("\n")[2:]:
        if not line.startswith("- "):
            break
        name, _, text = line[2:].partition(": ")
        if text and name not in prompt_summary:
            prompt_summary[name] = text
# The release's own Tooling order (read from dist/), which also places tools listed without a
# summary (view_image); the full run shows only the tools it has.
order = rules.get("promptToolOrder") or order
for t in tools:
    t["promptSummary"] = prompt_summary.get(t["name"])

pack = dict(base)
pack.update({
    "version": series,
    "capturedFrom": f"openclaw {a.version}",
    "tools": tools,
    "groups": rules["groups"],
    "profiles": {p: (None if v in (None, ["*"]) else v) for p, v in rules["profiles"].items()},
    "profileValues": rules["profileValues"],
    "nonOwnerDeny": owner_only,
    "gatewayHttpDeny": rules["gatewayHttpDeny"],
    "exec": rules["exec"],
    "pluginAllowlistPatterns": rules["pluginAllowlistPatterns"],
    "toolingPrompt": tooling_full,
    "toolingPromptToolSearch": tooling(sp),
})
pack["pluginsOffByDefault"] = dict(sorted(off_by_default.items()))
pack["mediaCredentials"] = [{"plugin": p, "tool": t, "env": env, "profileProviders": media_profile_providers[(p, t)]}
                            for (p, t), env in sorted(media_credentials.items())]
# Provider ids a stored auth profile is filed under for another (the manifests'
# providerAuthAliases: `x-ai` is `xai`), lowercased as OpenClaw compares them.
auth_aliases = {}
for manifest in sorted(glob.glob(os.path.join(a.extensions, "*", "openclaw.plugin.json"))):
    for alias, target in (json.load(open(manifest)).get("providerAuthAliases") or {}).items():
        if not isinstance(target, str):
            raise SystemExit(f"{manifest}: providerAuthAliases.{alias} is not a provider id")
        auth_aliases.setdefault(alias.strip().lower(), target.strip().lower())
pack["providerAuthAliases"] = dict(sorted(auth_aliases.items()))
pack["providerCredentials"] = provider_credentials
# video_generate takes audio references when a video provider that takes them is configured,
# or the configured video model names one (or a provider the manifests do not know): the
# providers from the manifests, the schema from the video_audio run (FAL's key).
video_known, video_audio = set(), set()
for manifest in sorted(glob.glob(os.path.join(a.extensions, "*", "openclaw.plugin.json"))):
    d = json.load(open(manifest))
    for provider in (d.get("contracts") or {}).get("videoGenerationProviders") or []:
        meta = (d.get("videoGenerationProviderMetadata") or {}).get(provider, {})
        ids = [provider, *meta.get("aliases", [])]
        video_known.update(ids)
        if meta.get("referenceAudioInputs") is True:
            video_audio.update(ids)
audio_run = req("video_audio")
audio_tool = next((fn(t) for t in (audio_run or {}).get("tools", []) if fn(t)["name"] == "video_generate"), None)
video_entry = next((t for t in tools if t["name"] == "video_generate"), {})
if audio_tool and audio_tool["parameters"] != video_entry.get("parameters"):
    pack["videoAudioReferences"] = {
        "knownProviders": sorted(video_known), "audioProviders": sorted(video_audio),
        "description": audio_tool["description"], "parameters": audio_tool["parameters"]}
# How a media tool a key brings (the media_keys run) words itself where that differs from the
# model-named form above (view_image: "with available vision").
media_keys = req("media_keys")
by_name = {t["name"]: t for t in tools}
pack["mediaCredentialDescriptions"] = {
    fn(t)["name"]: fn(t)["description"] for t in (media_keys or {}).get("tools", [])
    if fn(t)["name"] in by_name and by_name[fn(t)["name"]].get("inDefaultRun") is False
    and fn(t)["description"] != by_name[fn(t)["name"]]["description"]}
pack["aliases"] = {k: v for k, v in base["aliases"].items() if v in names}
pack["familyExpansions"] = {k: [m for m in v if m in names] for k, v in base.get("familyExpansions", {}).items() if k in names}
pack["subagent"] = dict(base["subagent"], **rules["subagent"])
pack["sandbox"] = dict(base["sandbox"], defaultAllow=rules["defaultAllow"], defaultDeny=rules["defaultDeny"])
pack["primarySessionOnly"] = dict(base["primarySessionOnly"], tools=[t for t in base["primarySessionOnly"]["tools"] if t in names])
pack["toolingPromptRule"] = dict(base["toolingPromptRule"], summaryOrder=order,
                                 footer="\n".join(x for x in tl[2:] if not x.startswith("- ")))

ts = dict(base["toolSearch"])
ts["defaultEnabled"] = search_on_by_default
ts["directTools"] = searched_names
ts["deferredInDefaultRun"] = deferred if search_on_by_default else []
ts["deferredWithToolsMode"] = deferred
# The directory's footer and whether it also lists the tools sent directly, from the release's
# directory formatter (extract_rules.mjs).
ts["directoryGuidance"] = rules["directoryGuidance"]
ts["metaToolSchemas"] = {fn(t)["name"]: fn(t) for t in searched["tools"] if fn(t)["name"].startswith("tool_")}
by_mode = {"tools": searched_names}
for mode, run in (("directory", "ts_directory"), ("code", "ts_code")):
    r = req(run)
    if r:
        by_mode[mode] = [fn(t)["name"] for t in r["tools"]]
        if mode == "code":
            ts["codeModeToolSchema"] = next((fn(t) for t in r["tools"] if fn(t)["name"] == "tool_search_code"), None)
ts["directToolsByMode"] = by_mode
ts["coreCodingTools"] = [t for t in ts.get("coreCodingTools", []) if t in names]
# A media tool the media_on run sends that Tool Search then defers is no direct-only tool
# (view_image is one only for a model that takes images: visionModelTools below).
media_sent = {fn(t)["name"] for t in (media_on or {}).get("tools", [])}
media_search = req("media_on_search")
media_direct = {fn(t)["name"] for t in (media_search or {}).get("tools", [])}
ts["directOnlyTools"] = [t for t in ts.get("directOnlyTools", []) if t in names
                         and not (media_search and t in media_sent and t not in media_direct)]
# The tools a model that takes images brings (the vision_model run, Tool Search on: each is
# sent directly) and how it words them; they stay out of every other run.
vision = req("vision_model")
pack["visionModelTools"] = {
    fn(t)["name"]: {"description": fn(t)["description"], "parameters": fn(t)["parameters"]}
    for t in (vision or {}).get("tools", [])
    if fn(t)["name"] in by_name and by_name[fn(t)["name"]].get("inDefaultRun") is False}
# The tools only a gateway turn whose client declares what they need is sent (the client_caps
# run: chat.send as the TUI declaring every cap they need), as sent then, with what each needs
# (extract_rules.mjs: the caps, and for the task suggestion tools an operator UI client with the
# scope), the caps the Control UI and the TUI declare, and which clients are operator UIs.
caps_run = req("client_caps")
if caps_run is None:
    raise SystemExit(f"{a.work}/runs/client_caps.jsonl: no gateway turn recorded")
caps_sent = {fn(t)["name"]: fn(t) for t in caps_run["tools"]}
client_caps = rules["clientCapabilities"]
unsent = [t for t in client_caps["tools"] if t not in caps_sent]
if unsent:
    raise SystemExit(f"the client_caps run was not sent {', '.join(unsent)}")
pack["clientCapabilities"] = {
    "tools": {name: dict(needs, description=caps_sent[name]["description"], parameters=caps_sent[name]["parameters"])
              for name, needs in client_caps["tools"].items()},
    "clients": client_caps["clients"],
    "operatorUiClients": client_caps["operatorUiClients"],
    **({"skillLibrary": {"untrackedModes": client_caps["skillLibrary"]["untrackedModes"]}} if client_caps.get("skillLibrary") else {}),
    "where": ", ".join(f"{k} {v}" for k, v in client_caps["where"].items())
             + (f", skillLibrary {client_caps['skillLibrary']['where']}" if client_caps.get("skillLibrary") else ""),
}
def code_mode_description(rules_, swarm_default, run, head):
    """exec's description rules (extract_rules.mjs), checked against the code_mode run's own:
    its facts (the shell tool and nodes callable, no MCP tool, swarm by its default and
    sessions_spawn, skills: the bundled ones) and the default numbers must write that text."""
    sent = {fn(t)["name"] for t in full["tools"]} - {fn(t)["name"] for t in run["tools"] if fn(t)["name"] not in ("exec", "wait")}
    facts = [f for f, on in (("shell", "exec" in sent), ("nodes", "nodes" in sent), ("mcp", False),
                             ("swarm", swarm_default and (not rules_["swarmNeedsSpawn"] or "sessions_spawn" in sent)),
                             ("skills", True)) if on]
    written = rules_["combinations"]["+".join(facts)]
    text = re.sub(r"\{\{(\w+)\}\}", lambda m: rules_["parts"][m.group(1)] if m.group(1) in written else "", rules_["template"])
    limits = rules_["limits"]
    text = (text.replace("@TIMEOUT_MS@", str(limits["timeoutMs"]["default"]))
            .replace("@INBOX_BYTES@", str(min(limits["memoryLimitBytes"]["default"], limits["maxSnapshotBytes"]["default"])))
            .replace("@MAX_OUTPUT_BYTES@", str(limits["maxOutputBytes"]["default"]))
            .replace("@SHELL@", "exec"))
    if text != head:
        raise SystemExit(f"exec's description rules ({'+'.join(facts)}) do not write the code_mode run's:\n{text}\n---\n{head}")
    return rules_


def code_mode_index(index_rules):
    """Code Mode's index rules (extract_rules.mjs) with what each tool's line ends with (its
    output hint, null for `?`), read from the code_mode_index_* runs, each of which indexes all
    of the few tools it allows; and whether an input hint carries numbers' bounds."""
    outputs, bounds = {}, False
    heading = "\n\n" + index_rules["heading"] + "\n"
    for path in sorted(glob.glob(os.path.join(a.work, "runs", "code_mode_index_*.jsonl"))):
        name = os.path.basename(path)[:-len(".jsonl")]
        run = req(name)
        description = next(fn(t)["description"] for t in run["tools"] if fn(t)["name"] == "exec")
        if heading not in description:
            raise SystemExit(f"{name}: exec's description has no index")
        index = description.split(heading, 1)[1]
        # The tools the run allowed (its config), by the callable name each would take.
        config = open(os.path.join(a.work, "homes", name, ".openclaw", "openclaw.json")).read()
        allowed = {re.sub(r"[^A-Za-z0-9_$]", "_", t): t
                   for t in json.loads("[" + re.search(r"allow: \[([^\]]*)\]", config).group(1) + "]")}
        if not index.endswith("\n\n" + index_rules["completeFooter"]):
            raise SystemExit(f"{name}: exec's index left tools out: {index.splitlines()[-1]}")
        for line in index.split("\n"):
            if not line.startswith("- "):
                break
            callable_name, _, rest = line[2:].partition(" ")
            input_hint, _, output = rest.rpartition(" -> ")
            base = re.sub(r"_[0-9a-f]{8,}$", "", callable_name)
            # A tool another one brings (apply_patch with write) is not in the list: its name.
            tool = allowed.get(callable_name) or allowed.get(base) or base
            outputs[tool] = None if output == "?" else output
            bounds = bounds or "/* " in input_hint
    if not outputs:
        raise SystemExit("no code_mode_index_* run indexes any tool")
    rest = {k: v for k, v in index_rules.items() if k != "where"}
    return dict(rest, numericBounds=bounds, outputHints=dict(sorted(outputs.items())), where=index_rules["where"])


# Code Mode: its two control tools and Tooling lines (the code_mode run), and what an absent
# tools.codeMode means: true if the default run engages it, "auto" if only the run on a
# "preferred" model does, else off.
code_mode_run = req("code_mode")
engaged = lambda run: bool(run) and any(fn(t)["name"] == "wait" for t in run.get("tools", []))
if engaged(code_mode_run):
    code_sp = code_mode_run["messages"][0]["content"]
    summaries = {}
    for line in code_sp.split("\n"):
        m = re.match(r"^- (exec|wait): (.+)$", line)
        if m and m.group(1) not in summaries:
            summaries[m.group(1)] = m.group(2)
    controls = {fn(t)["name"]: {"description": fn(t)["description"], "parameters": fn(t)["parameters"]}
                for t in code_mode_run["tools"] if fn(t)["name"] in ("exec", "wait")}
    # exec's description ends with the run's own catalog index: not the release's text.
    head = controls["exec"]["description"].split("\n\nEnabled async tool globals")[0]
    controls["exec"]["description"] = head
    pack["codeMode"] = {
        "defaultEnabled": True if engaged(default) else ("auto" if engaged(req("code_mode_default")) else False),
        "modelTiers": code_mode_tiers(a.extensions),
        "controls": controls,
        "promptSummaries": summaries,
    }
    if rules.get("codeModeIndex"):
        pack["codeMode"]["index"] = code_mode_index(rules["codeModeIndex"])
    if rules.get("codeModeDescription"):
        pack["codeMode"]["description"] = code_mode_description(rules["codeModeDescription"], rules["swarm"]["default"], code_mode_run, head)
    if rules.get("codeModeNamespaces"):
        pack["codeMode"]["namespaces"] = rules["codeModeNamespaces"]
# What each catalog model takes: a run on one the config does not declare takes images when
# its catalog entry says so (view_image and computer then).
pack["catalogModelInputs"] = catalog_model_inputs(a.extensions)
# The catalogs are looked up by the id OpenClaw normalizes a model reference to (anthropic/opus
# is claude-opus-5), and the anthropic plugin takes a newer Claude model as taking images
# whatever its entry says (extract_rules.mjs).
pack["modelIdNormalization"] = model_id_normalization(a.extensions)
pack["claudeImageRule"] = rules["claudeImageRule"]
# A spawned subagent's envelope, rendered by the release's own builder (extract_rules.mjs) for
# a child at depth 1 and 2 that may spawn ("spawn") or not ("leaf"); clawdeck fills the
# sessions and drops the requester's channel line when the spawner's turn named none.
pack["subagentEnvelope"] = {"variants": rules["subagentEnvelope"], "where": rules["where"]["subagentEnvelope"]}
if "### Deferred Tool Schemas" in sp:
    ts["promptSection"] = sp[sp.index("### Deferred Tool Schemas"):sp.index("The AGENTS.md Tools section")]
pack["toolSearch"] = ts

# Copy tied to other tools' presence: each base rule is checked again in the run without that
# tool (deny_<tool>), and kept (with the release's wording) only where the run shows it.
dropped = []


def without(absent):
    r = req(f"deny_{absent}")
    return {fn(t)["name"]: fn(t) for t in r["tools"]} if r else None


def form(f):
    return {"description": f["description"], "parameters": f["parameters"]}


variants = {}
for tool, vs in base.get("schemaVariants", {}).items():
    for v in vs:
        seen = without(v["whenAbsent"])
        if tool in full_tools and seen and tool in seen and form(seen[tool]) != form(full_tools[tool]):
            variants.setdefault(tool, []).append(dict(whenAbsent=v["whenAbsent"], **form(seen[tool])))
        else:
            dropped.append(f"schemaVariants.{tool}/{v['whenAbsent']}")
pack["schemaVariants"] = variants
requires = {}
for tool, props in base.get("propertyRequires", {}).items():
    for prop, needs in props.items():
        seen = without(needs)
        has = lambda f: prop in (f.get("parameters") or {}).get("properties", {})
        if tool in full_tools and has(full_tools[tool]) and seen and tool in seen and not has(seen[tool]):
            requires.setdefault(tool, {})[prop] = needs
        else:
            dropped.append(f"propertyRequires.{tool}.{prop}")
pack["propertyRequires"] = requires
fragments = {}
for tool, frags in base.get("descriptionFragments", {}).items():
    for frag in frags:
        listed = frag.get("listed", [])
        text = frag["text"].replace("{tools}", "/".join(f"`{x}`" for x in listed))
        described = (full_tools.get(tool) or {}).get("description") or ""
        seen = without(frag["requires"]) if frag.get("requires") else None
        shown = text in described and (
            not frag.get("requires")
            or (seen is not None and tool in seen and text not in seen[tool]["description"]))
        if shown:
            fragments.setdefault(tool, []).append(frag)
        else:
            dropped.append(f"descriptionFragments.{tool}: {frag['text'][:40]!r}")
pack["descriptionFragments"] = fragments


def predicted(tool, absent):
    """The tool's full-run form with the kept property and fragment rules applied for `absent`."""
    f = json.loads(json.dumps(form(full_tools[tool])))
    for prop, needs in requires.get(tool, {}).items():
        if needs == absent:
            f["parameters"].get("properties", {}).pop(prop, None)
            if isinstance(f["parameters"].get("required"), list):
                f["parameters"]["required"] = [r for r in f["parameters"]["required"] if r != prop]
    for frag in fragments.get(tool, []):
        listed = frag.get("listed", [])
        text = frag["text"].replace("{tools}", "/".join(f"`{x}`" for x in listed))
        left = [x for x in listed if x != absent]
        if frag.get("requires") == absent or (listed and not left):
            adapted = ""
        elif listed:
            adapted = frag["text"].replace("{tools}", "/".join(f"`{x}`" for x in left))
        else:
            adapted = text
        f["description"] = f["description"].replace(text, adapted, 1)
    return f


# Whatever else a run without a tool words differently is a schema variant of the release.
for absent in neighbours(base):
    seen = without(absent)
    for tool, f in sorted((seen or {}).items()):
        if tool not in full_tools or form(f) == predicted(tool, absent):
            continue
        if not any(v["whenAbsent"] == absent for v in variants.get(tool, [])):
            variants.setdefault(tool, []).append(dict(whenAbsent=absent, **form(f)))
pack["schemaVariants"] = variants
# A configured channel's form of each tool (message's channel actions) and its form in a turn
# over one of its chats (channel_forms.py): Telegram's (in the package) and those of the channel
# plugins capture.sh installs. A channel this capture did not record (--keep-channels: the
# channels part of a capture is checked on its own) keeps the base pack's forms.
configured_forms, turn_forms = channel_forms(
    a.work, full_tools, CHANNELS, base, [c for c in (a.keep_channels or "").split(",") if c])
channel_variants = configured_forms
# The Control UI's own turns, with operator.admin (control_ui_admin) and without
# (control_ui_guest).
def gateway_run(name):
    run = req(name)
    if run is None:
        raise SystemExit(f"{a.work}/runs/{name}.jsonl: no gateway turn recorded")
    return {fn(t)["name"]: fn(t) for t in run["tools"]}
admin_sent, guest_sent = gateway_run("control_ui_admin"), gateway_run("control_ui_guest")
library = client_caps.get("skillLibrary")
# A webchat turn's form of each tool (the client_caps run is a chat.send turn, which the
# gateway runs rather than the embedded runner): message gains the Control UI's ClawHub search.
# Where the release gives a tracked client a skill library, skill_workshop's form is the
# library's: an admin's (the TUI's and the Control UI admin's turn) the workspace form, a
# guest's the personal one; a turn without a library keeps the local form.
for f in caps_sent.values():
    name = f["name"]
    if name not in full_tools or form(f) == form(full_tools[name]):
        continue
    variants_of = channel_variants.setdefault(name, [])
    guest = guest_sent.get(name)
    if library and guest and form(guest) != form(f) and form(admin_sent.get(name, {"description": None, "parameters": None})) == form(f):
        variants_of.insert(0, dict(whenTurnChannel="webchat", whenSkillLibrary="workspace", **form(f)))
        variants_of.insert(0, dict(whenTurnChannel="webchat", whenSkillLibrary="personal", **form(guest)))
    else:
        variants_of.insert(0, dict(whenTurnChannel="webchat", **form(f)))
# A turn over a chat of a configured channel: message's actions and fields are scoped to the
# turn's channel, and sessions_spawn may bind a session to the chat's thread; these come first.
# The scheduled_widget run's pinned widget tool is read below.
for name, forms in turn_forms.items():
    channel_variants[name] = forms + channel_variants.get(name, [])
pack["channelVariants"] = channel_variants
# Automation management (the control_ui_admin run: chat.send as the Control UI with
# operator.admin): where the release grants it (extract_rules.mjs), the tool whose form that turn
# changes, as sent then; where it grants none, that turn's forms must be the client_caps turn's.
admin_changed = {name: f for name, f in admin_sent.items()
                 if name in caps_sent and form(f) != form(caps_sent[name])}
management = rules.get("automationManagement")
if management is None and admin_changed:
    raise SystemExit(f"the release grants no automation management, yet a Control UI admin's turn words {', '.join(admin_changed)} otherwise")
if xai_rules:
    pack["xaiTools"] = xai_rules
# Tools only some gateway turns build (extract_rules.mjs hostTools): which turns, in the tool's
# condition too.
host_rules = rules.get("hostTools")
if host_rules:
    host_words = {"agentMethod": "its agent method",
                  "reply": "its reply to a message (a channel sender's, a client's chat.send)",
                  "scheduled": "a scheduled job's turn"}
    for name, hosts in host_rules["tools"].items():
        entry = next((e for e in tools if e["name"] == name), None)
        if entry is None or entry.get("inDefaultRun") is not False:
            raise SystemExit(f"{host_rules['where']} builds {name} for gateway turns only, which the pack does not hold as a conditional tool")
        # Its form as a gateway turn sends it (the client_caps run: a chat.send turn).
        sent = {fn(t)["name"]: fn(t) for t in (req("client_caps") or {}).get("tools", [])}
        if name not in sent:
            raise SystemExit(f"the client_caps run (a gateway's chat.send turn) does not send {name}, which {host_rules['where']} builds there")
        entry.update(form(sent[name]))
        entry["requires"] = ("a turn a gateway hosts: " + " or ".join(host_words[h] for h in hosts)
                             + " (it prepares the run's GitHub publication availability; openclaw agent --local does not)")
    pack["hostTools"] = host_rules
# A heartbeat's turn (extract_rules.mjs heartbeatTurn): its tool as the heartbeat run (replies
# through the message tool) sends it, with message beside it.
heartbeat_rules = rules.get("heartbeatTurn")
if heartbeat_rules:
    sent = {fn(t)["name"]: fn(t) for t in (req("heartbeat") or {}).get("tools", [])}
    missing = [n for n in heartbeat_rules["profileAlsoAllow"] if n not in sent]
    if missing:
        raise SystemExit(f"the heartbeat run does not send {', '.join(missing)}, which {heartbeat_rules['where']} gives a heartbeat's turn")
    name = heartbeat_rules["tool"]
    entry = next((e for e in tools if e["name"] == name), None)
    if entry is None or entry.get("inDefaultRun") is not False:
        raise SystemExit(f"the pack does not hold {name} as a conditional tool")
    entry.update(form(sent[name]))
    # The message tool as such a turn sends it, where that differs from its plain form (2026.8
    # words it for replies through it).
    if form(sent["message"]) != form(full_tools["message"]):
        pack["channelVariants"].setdefault("message", []).insert(
            0, dict(whenMessageToolReply=True, **form(sent["message"])))
    entry["requires"] = f"a heartbeat's turn where {heartbeat_rules['key']} is \"{heartbeat_rules['value']}\" (its reply goes through the message tool)"
    pack["heartbeatTurn"] = heartbeat_rules
# A scheduled job's turn (extract_rules.mjs scheduledTurn): the tools its missing owner loses,
# and those a cron session key loses, each a tool the pack holds.
scheduled_rules = rules.get("scheduledTurn")
if scheduled_rules:
    named = {e["name"] for e in tools} | set(scheduled_rules.get("channelPluginTools", []))
    unknown = [n for n in scheduled_rules["confirmedOwnerTools"] + scheduled_rules["cronSessionDrops"] + scheduled_rules.get("webhookDrops", []) if n not in named]
    if unknown:
        raise SystemExit(f"{scheduled_rules['where']} names {', '.join(unknown)}, which the pack does not hold")
    # The widget tool such a turn keeps pinned-only, in the form the scheduled_widget run sends.
    pinned = scheduled_rules.get("pinnedWidget")
    if pinned:
        sent = {fn(t)["name"]: fn(t) for t in (req("scheduled_widget") or {}).get("tools", [])}
        if pinned["tool"] not in sent:
            raise SystemExit(f"the scheduled_widget run does not send {pinned['tool']}, which {scheduled_rules['where']} keeps for a scheduled turn whose cap names it")
        pack["channelVariants"].setdefault(pinned["tool"], []).insert(
            0, dict(whenPinnedWidget=True, **form(sent[pinned["tool"]])))
    pack["scheduledTurn"] = scheduled_rules
if management is not None:
    if list(admin_changed) != ["automations"]:
        raise SystemExit(f"a Control UI admin's turn changes {sorted(admin_changed) or 'no tool'}, not automations alone")
    pack["automationManagement"] = dict(
        tool="automations", grantedTo=management["grantedTo"], **form(admin_changed["automations"]),
        where=", ".join(f"{k} {v}" for k, v in management["where"].items()))
else:
    pack.pop("automationManagement", None)
if base.get("gatewayConfigReads") and not unchanged(base["gatewayConfigReads"]["tool"]):
    pack.pop("gatewayConfigReads")
    dropped.append("gatewayConfigReads")
sv = base.get("sessionVisibility")
if sv:
    sv = dict(sv, tools=[t for t in sv["tools"] if t in names])
    # The release's default and scope texts, and the visibility its full run was written with.
    if rules["sessionVisibility"]["default"]:
        sv["default"] = rules["sessionVisibility"]["default"]
    if rules["sessionVisibility"]["scopes"]:
        sv["scopes"] = dict(sv["scopes"], **rules["sessionVisibility"]["scopes"])
    for tool in sv["tools"]:
        m = re.search(r"obeys `tools\.sessions\.visibility` \((\w+): ", (full_tools.get(tool) or {}).get("description") or "")
        if m:
            sv["recorded"] = m.group(1)
    pack["sessionVisibility"] = sv

pack["notes"] = dict(base.get("notes", {}))
pack["notes"]["captured"] = (
    f"assets/openclaw/capture/capture.sh from openclaw@{a.version}: rules from dist/ "
    + ", ".join(f"{k} {v}" for k, v in rules["where"].items() if v)
    + (f"; base-pack copy dropped as the release words the tool differently: {', '.join(dropped)}" if dropped else ""))

extra_path = a.extra or os.path.join(a.work, "extra.json")
if os.path.exists(extra_path):
    extra = json.load(open(extra_path))
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(pack.get(key), dict):
            pack[key] = dict(pack[key], **value)
        else:
            pack[key] = value

# Swarm globals (the swarm_on and swarm_off runs): the tools they bring, each as sent then, and
# a switch that builds them only while tools.swarm.enabled is on (the agent's over the global
# one); the forms the run against the release's default words otherwise (sessions_spawn's).
if rules.get("swarm"):
    on, off = ({fn(t)["name"]: fn(t) for t in req(n)["tools"]} for n in ("swarm_on", "swarm_off"))
    default = rules["swarm"]["default"]
    brought = sorted(set(on) - set(off))
    flipped = off if default else on
    pack["swarm"] = {
        "default": default,
        "tools": brought,
        "forms": {n: form(flipped[n]) for n in sorted(on) if n in off and form(on[n]) != form(off[n])},
        "where": rules["swarm"]["where"],
    }
    for t in pack["tools"]:
        if t["name"] in brought:
            t.update(form(on[t["name"]]))
            if not default:
                t["requires"] = "tools.swarm.enabled: true (swarm globals)"
    switch = {"key": "tools.swarm.enabled", "agentScope": "tools.swarm", "agentMerges": True,
              **({} if default else {"requiresTrue": True}), "removes": brought}
    switches = pack.setdefault("switches", {})
    switches["keys"] = [k for k in switches.get("keys", []) if k["key"] != switch["key"]] + [switch]

json.dump(pack, open(a.out, "w"), indent=1, ensure_ascii=False)
open(a.out, "a").write("\n")
print(f"{a.out}: {len(tools)} tools, {sum(t['inDefaultRun'] for t in tools)} in the default run")
