// extract_rules.mjs DIST -> JSON on stdout: the rules of one OpenClaw release read from its
// dist/ (module names carry build hashes, so modules are found by what they export or contain).
//   groups, profiles, profileValues  tool-catalog (CORE_TOOL_GROUPS, resolveCoreToolProfilePolicy, PROFILE_OPTIONS)
//   sections                         listCoreToolSections (catalog sections with each tool's summary)
//   sandbox defaultAllow/defaultDeny constants (DEFAULT_TOOL_ALLOW / DEFAULT_TOOL_DENY)
//   subagent alwaysDeny/leafDeny     SUBAGENT_TOOL_DENY_ALWAYS / _LEAF (source text)
//   subagent defaultMaxSpawnDepth    `agents.defaults.subagents.maxSpawnDepth ?? N` (source text)
//   sessionVisibility               resolveSessionToolsVisibility's default, SESSION_VISIBILITY_SCOPE_COPY
//   ownerOnlyCoreTools, gatewayHttpDeny  GATEWAY_OWNER_ONLY_CORE_TOOLS, DEFAULT_GATEWAY_HTTP_TOOL_DENY
//   pluginAllowlistPatterns          whether a plugin tool allowlist compiles glob patterns
//                                    (createPluginToolAllowlist) or matches exact names only
//   exec defaultSafeBins, safeBuiltins, safeBinTrustedDirs
//                                    DEFAULT_SAFE_BINS, DEFAULT_SAFE_BUILTINS,
//                                    DEFAULT_SAFE_BIN_TRUSTED_DIRS (source text)
//   exec modes                       resolveExecPolicyForMode called for every mode
//                                    normalizeExecMode accepts
//   exec inlineEval                  FLAG_/POSITIONAL_INTERPRETER_INLINE_EVAL_SPECS (the source
//                                    literals evaluated; sets and maps as lists)
//   exec permissionModes             EXEC_MODE_BY_PERMISSION_MODE (source text): a session's
//                                    permission mode → the exec mode it stands for
//   promptToolOrder                  the system prompt's Tooling order (buildSystemPromptToolLines'
//                                    toolOrder; a constant's name stands for its string)
//   directoryGuidance                Tool Search's deferred directory footer (source text of the
//                                    directory formatter): the code mode's, the plain and the
//                                    "omitted" guidance, the per-mode suffixes, and whether the
//                                    directory leaves out the tools sent directly
//   claudeImageRule                  the anthropic plugin's rule that a newer Claude model takes
//                                    images whatever its entry says (applyAnthropicImageInput-
//                                    Capability): the model-id normalization, the identity
//                                    pattern, the "modern model" patterns and aliases (source text)
//   clientCapabilities               what a gateway client must declare (connect `caps`) for a
//                                    tool to reach the model: each `requiredClientCaps:` of the
//                                    tools module (a constant's name stands for its strings), the
//                                    task suggestion tools' gate (chat.send's
//                                    supportsTaskSuggestions: operator UI client, scope, cap),
//                                    the operator UI client ids (isOperatorUiClient), and the caps
//                                    the Control UI (control-ui/assets) and the TUI (gateway-chat)
//                                    declare; GATEWAY_CLIENT_CAPS/_NAMES resolved from client-info;
//                                    and which clients a skill library goes to (skillLibrary: the
//                                    modes OpenClaw does not track; null without one)
//   codeModeIndex                    Code Mode's index of the tools callable from code: its
//                                    budget, heading, footers, and the names a callable may not
//                                    take (read, with the rules' text checked)
//   codeModeDescription              Code Mode's exec description before its index: a template
//                                    with a slot per optional part, each part's text, the parts
//                                    each combination of the run's facts writes (rendered by the
//                                    release's own function), the numbers' limits
//   swarm                            swarm globals' default (tools.swarm.enabled), with the
//                                    agents_wait gate and the agent-over-global merge checked
//   hostTools                        the tools only some gateway turns build, and which turns
//                                    (github_identity_status: where the release prepares the
//                                    run's GitHub publication availability)
//   heartbeatTurn                    what a heartbeat's turn gets: heartbeat_respond where
//                                    messages.visibleReplies is "message_tool", added with
//                                    message to the profile layers' allowlists
//   scheduledTurn                    what a scheduled job's turn gets: the cap its toolsAllow
//                                    sets, the plugin tools that want a confirmed owner (the
//                                    cron runner names none), the tools a cron session key loses,
//                                    the widget tool a cap naming it keeps (pinned-only)
//   automationManagement             who a turn's automation management entitlement goes to
//                                    (the `managementEntitlement` sources: a Control UI
//                                    connection with operator.admin, a configured command owner's
//                                    fresh channel turn), each checked against the condition
//                                    that grants it; null where the release has none
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dist = process.argv[2];
if (!dist) { console.error("usage: extract_rules.mjs DIST [CHANNEL_PLUGIN_DIST ...]"); process.exit(2); }
// The dist/ of each channel plugin the capture installed from npm (their agent tools).
const channelPluginDists = process.argv.slice(3);
const files = readdirSync(dist).filter((f) => /\.(m?js)$/.test(f)).sort();
const text = (f) => readFileSync(join(dist, f), "utf8");

// A module's export alias of each local name (a minified chunk exports `NAME as t`), or null
// when it has no export list.
function exportAliases(f) {
  const m = text(f).match(/export \{([^}]*)\};?\s*$/);
  if (!m) return null;
  const alias = {};
  for (const part of m[1].split(",")) {
    const [local, as] = part.trim().split(/\s+as\s+/);
    alias[local] = as ?? local;
  }
  return alias;
}

// The module that exports every one of `names`, with each name's export alias.
function exporting(names) {
  for (const f of files) {
    const alias = exportAliases(f);
    if (alias && names.every((n) => n in alias)) return { file: f, alias };
  }
  throw new Error(`no module of ${dist} exports ${names.join(", ")}`);
}

// A `const NAME = [...]` string list in the source, with constants like AUTOMATIONS_TOOL_NAME resolved.
function constList(name) {
  for (const f of files) {
    const src = text(f);
    const m = src.match(new RegExp(`const ${name} = \\[([^\\]]*)\\]`));
    if (!m) continue;
    return { file: f, list: m[1].split(",").map((s) => s.trim()).filter(Boolean).map((s) => {
      if (/^["']/.test(s)) return s.slice(1, -1);
      for (const g of files) {
        const c = text(g).match(new RegExp(`const ${s} = "([^"]*)"`));
        if (c) return c[1];
      }
      throw new Error(`${name}: cannot resolve ${s}`);
    }) };
  }
  throw new Error(`no module of ${dist} defines ${name}`);
}

// A `const NAME = new Set([...])` of string literals in the source.
function constSet(name) {
  const found = firstMatch(new RegExp(`const ${name} = (?:/\\* @__PURE__ \\*/ )?new Set\\(\\[([^\\]]*)\\]\\)`));
  if (!found) throw new Error(`no module of ${dist} defines ${name}`);
  return { file: found.file, list: [...found.match[1].matchAll(/"([^"]*)"/g)].map((m) => m[1]) };
}

// tools.exec.mode → {security, ask, autoReview}, from the release's own function.
async function execModes() {
  const file = files.find((f) => text(f).includes("function resolveExecPolicyForMode(mode)"));
  if (!file) throw new Error(`no module of ${dist} defines resolveExecPolicyForMode`);
  const src = text(file);
  const alias = src.match(/resolveExecPolicyForMode as (\w+)/)?.[1];
  const accepted = src.match(/function normalizeExecMode\(value\) \{[\s\S]*?\n\}/)?.[0];
  if (!alias || !accepted) throw new Error(`${file}: cannot find the exec mode table`);
  const mod = await import(join(dist, file));
  const names = [...accepted.matchAll(/normalized === "(\w+)"/g)].map((m) => m[1]);
  const table = Object.fromEntries(names.map((m) => [m, mod[alias](m)]));
  return { file, table };
}

// The interpreters and flags that count as inline eval, as the release lists them.
function inlineEvalSpecs() {
  const start = "const FLAG_INTERPRETER_INLINE_EVAL_SPECS = [";
  const file = files.find((f) => text(f).includes(start));
  if (!file) throw new Error(`no module of ${dist} defines FLAG_INTERPRETER_INLINE_EVAL_SPECS`);
  const src = text(file);
  const from = src.indexOf(start);
  const to = src.indexOf("const INTERPRETER_ALLOWLIST_NAMES", from);
  if (to < 0) throw new Error(`${file}: the inline-eval specs do not end where expected`);
  const literal = src.slice(from, to);
  if (/\b(require|import|process|globalThis|function)\b/.test(literal)) {
    throw new Error(`${file}: the inline-eval specs are not plain data`);
  }
  const specs = new Function(`${literal}; return { flag: FLAG_INTERPRETER_INLINE_EVAL_SPECS, positional: POSITIONAL_INTERPRETER_INLINE_EVAL_SPECS };`)();
  const plain = (v) => v instanceof Set ? [...v].map(plain) : v instanceof Map ? [...v].map(plain)
    : Array.isArray(v) ? v.map(plain)
    : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v;
  return { file, specs: plain(specs) };
}

function firstMatch(re) {
  for (const f of files) {
    const m = text(f).match(re);
    if (m) return { file: f, match: m };
  }
  return null;
}

const catalog = exporting(["CORE_TOOL_GROUPS", "resolveCoreToolProfilePolicy", "listCoreToolSections", "PROFILE_OPTIONS"]);
const cat = await import(join(dist, catalog.file));
const c = (n) => cat[catalog.alias[n]];
const consts = exporting(["DEFAULT_TOOL_ALLOW", "DEFAULT_TOOL_DENY"]);
const cm = await import(join(dist, consts.file));
const gatewayMod = exporting(["GATEWAY_OWNER_ONLY_CORE_TOOLS", "DEFAULT_GATEWAY_HTTP_TOOL_DENY"]);
const gw = await import(join(dist, gatewayMod.file));
const always = constList("SUBAGENT_TOOL_DENY_ALWAYS");
const leaf = constList("SUBAGENT_TOOL_DENY_LEAF");
const depth = firstMatch(/agents\?\.defaults\?\.subagents\?\.maxSpawnDepth \?\? (\d+)/);
const globAllowlist = firstMatch(/function createPluginToolAllowlist\([^)]*\) \{[^}]*compileGlobPatterns/);
const exactAllowlist = firstMatch(/function isPluginToolAllowed\(allowlist, pluginId, toolName\) \{\s*const normalizedToolName = normalizeToolPolicyName\(toolName\);\s*return allowlist\.has\(normalizedToolName\)/);
if (!globAllowlist && !exactAllowlist) throw new Error("cannot tell how plugin tool allowlists match");
const visibility = firstMatch(/function resolveSessionToolsVisibility\(cfg\) \{[^}]*?return value;\s*return "(\w+)";/);
const scopeCopy = firstMatch(/const SESSION_VISIBILITY_SCOPE_COPY = \{([^}]*)\}/);
const scopes = scopeCopy ? Object.fromEntries([...scopeCopy.match[1].matchAll(/(\w+): "([^"]*)"/g)].map((m) => [m[1], m[2]])) : null;
const safeBins = constList("DEFAULT_SAFE_BINS");
const safeBuiltins = constSet("DEFAULT_SAFE_BUILTINS");
const trustedDirs = constList("DEFAULT_SAFE_BIN_TRUSTED_DIRS");
const modes = await execModes();
const inlineEval = inlineEvalSpecs();
const permissionTable = firstMatch(/const EXEC_MODE_BY_PERMISSION_MODE = \{([^}]*)\}/);
if (!permissionTable) throw new Error(`no module of ${dist} defines EXEC_MODE_BY_PERMISSION_MODE`);
const permissionModes = Object.fromEntries(
  [...permissionTable.match[1].matchAll(/"?([\w-]+)"?: "(\w+)"/g)].map((m) => [m[1], m[2]]));
// The Tooling section's order: string literals, and constants (`AUTOMATIONS_TOOL_NAME`) read
// from wherever the release defines them.
const orderLiteral = firstMatch(/const toolOrder = \[([^\]]*)\]/);
if (!orderLiteral) throw new Error(`no module of ${dist} defines the prompt's toolOrder`);
const constantValue = (name) => {
  const found = firstMatch(new RegExp(`const ${name} = "([^"]+)"`));
  if (!found) throw new Error(`toolOrder names ${name}, which no module defines`);
  return found.match[1];
};
const promptToolOrder = orderLiteral.match[1].split(",").map((e) => e.trim()).filter(Boolean)
  .map((e) => (e.startsWith('"') ? JSON.parse(e) : constantValue(e)));
// The deferred directory's footer: `mode === "code" ? CODE : omitted > 0 ? OMITTED : PLAIN`,
// then (2026.9) a suffix per mode; 2026.9 lists only entries not sent directly.
const guidanceChoice = firstMatch(/guidance = mode === "code" \? ("[^"]*") : omitted > 0 \? ("[^"]*") : ("[^"]*");/);
if (!guidanceChoice) throw new Error(`no module of ${dist} writes Tool Search's directory guidance`);
const suffixes = {};
for (const m of text(guidanceChoice.file).matchAll(/mode === "(\w+)"\) guidance \+= ("[^"]*");/g)) {
  suffixes[m[1]] = JSON.parse(m[2]);
}
const directoryGuidance = {
  code: JSON.parse(guidanceChoice.match[1]),
  omitted: JSON.parse(guidanceChoice.match[2]),
  listed: JSON.parse(guidanceChoice.match[3]),
  modeSuffix: suffixes,
  listsDirectTools: !/entries\.filter\(\(entry\) => !entry\.directVisible\)/.test(text(guidanceChoice.file)),
};
// The anthropic plugin marks a model image-capable when its id or name is a "modern" Claude
// model (supportsAnthropicImageInput → matchesAnthropicModernModel → supportsClaudeAdaptive-
// Thinking or the Mythos preview). The functions' regex literals and `=== "alias"` tests are
// read; their shapes are checked, so a release that composes them differently fails here.
function fnBody(name) {
  const found = firstMatch(new RegExp(`\\nfunction ${name}\\(`));
  if (!found) throw new Error(`no module of ${dist} defines ${name}`);
  return fnIn(found.file, name);
}
// The text of `function NAME(` up to its closing brace at the start of a line, in `file`.
function fnIn(file, name) {
  const src = text(file);
  const from = src.indexOf(`function ${name}(`);
  if (from < 0) throw new Error(`${file} does not define ${name}`);
  return src.slice(from, src.indexOf("\n}\n", from) + 2);
}
const regexLiterals = (body) => [...body.matchAll(/\/((?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n[])+)\/\.(?:test|exec)\(/g)].map((m) => m[1]);
const equalAliases = (body) => [...body.matchAll(/normalized === "([^"]+)"/g)].map((m) => m[1]);
function claudeImageRule() {
  const expect = (body, needle, what) => {
    if (!body.includes(needle)) throw new Error(`${what} no longer reads ${JSON.stringify(needle)}`);
    return body;
  };
  expect(fnBody("applyAnthropicImageInputCapability"), "supportsAnthropicImageInput(params.modelId, params.model.name)", "applyAnthropicImageInputCapability");
  expect(fnBody("supportsAnthropicImageInput"), "matchesAnthropicModernModel(candidate)", "supportsAnthropicImageInput");
  expect(fnBody("matchesAnthropicModernModel"), "supportsClaudeAdaptiveThinking({ id: modelId }) || isAnthropicMythosPreviewModel(modelId)", "matchesAnthropicModernModel");
  expect(fnBody("normalizeClaudeModelId"), '(normalized.startsWith("anthropic/") ? normalized.slice(10) : normalized).replace(/[._\\s]+/g, "-")', "normalizeClaudeModelId");
  const adaptive = expect(fnBody("supportsClaudeAdaptiveThinking"), "resolveClaudeOpus5ModelIdentity(ref) !== void 0 ||", "supportsClaudeAdaptiveThinking");
  const identity = fnBody("resolveClaudeModelIdentity");
  const opus5 = fnBody("resolveClaudeOpus5ModelIdentity");
  const opus55 = opus5.includes("resolveClaudeOpus55ModelIdentity(ref)") ? fnBody("resolveClaudeOpus55ModelIdentity") : "";
  const identityPatterns = regexLiterals(identity);
  if (identityPatterns.length !== 1) throw new Error(`resolveClaudeModelIdentity: ${identityPatterns.length} patterns`);
  const manifest = JSON.parse(readFileSync(join(dist, "extensions", "anthropic", "openclaw.plugin.json"), "utf8"));
  return {
    providers: manifest.providers,
    // Group 1 when the pattern captures, else from where "claude-" starts in the match.
    identityPattern: identityPatterns[0],
    modernPatterns: [adaptive, opus5, opus55, fnBody("isAnthropicMythosPreviewModel")].flatMap(regexLiterals),
    modernAliases: [opus5, opus55].flatMap(equalAliases),
  };
}
const claudeImages = claudeImageRule();

async function clientCapabilities() {
  // The module that defines the tables (another may re-export them).
  const infoFile = firstMatch(/\nconst GATEWAY_CLIENT_CAPS = \{/)?.file;
  const alias = infoFile && exportAliases(infoFile);
  if (!alias) throw new Error(`no module of ${dist} defines and exports GATEWAY_CLIENT_CAPS`);
  const infoExports = await import(join(dist, infoFile));
  const named = (table, name, what) => {
    const value = infoExports[alias[table]]?.[name];
    if (typeof value !== "string") throw new Error(`${what}: ${table}.${name} is not in ${infoFile}`);
    return value;
  };
  // A list's entries: string literals and GATEWAY_CLIENT_CAPS members.
  const capsOf = (list, what) => list.split(",").map((e) => e.trim()).filter(Boolean).map((e) => {
    if (/^["'`]/.test(e)) return e.slice(1, -1);
    const member = e.match(/^GATEWAY_CLIENT_CAPS\.(\w+)$/);
    if (member) return named("GATEWAY_CLIENT_CAPS", member[1], what);
    throw new Error(`${what}: cannot read the cap ${e}`);
  });

  // Each tool object with `requiredClientCaps: X`: its `name: "..."` is the last one before it
  // at the same indentation.
  const toolsFile = firstMatch(/\nfunction filterToolsByClientCaps\(tools, declaredClientCaps\) \{/)?.file;
  if (!toolsFile) throw new Error(`no module of ${dist} defines filterToolsByClientCaps`);
  const src = text(toolsFile);
  const tools = {};
  for (const m of src.matchAll(/\n(\t+)[^\n]*?\brequiredClientCaps: (\w+|\[[^\]]*\])/g)) {
    const before = src.slice(Math.max(0, m.index - 4000), m.index);
    const names = [...before.matchAll(new RegExp(`\\n${m[1]}name: "([\\w-]+)",`, "g"))];
    if (!names.length) throw new Error(`${toolsFile}: no tool name before requiredClientCaps: ${m[2]}`);
    let list = m[2];
    if (!list.startsWith("[")) {
      const c = src.match(new RegExp(`\\nconst ${list} = \\[([^\\]]*)\\]`));
      if (!c) throw new Error(`${toolsFile}: cannot resolve ${list}`);
      list = c[1];
    } else {
      list = list.slice(1, -1);
    }
    tools[names.at(-1)[1]] = { caps: capsOf(list, `requiredClientCaps of ${names.at(-1)[1]}`) };
  }
  if (!Object.keys(tools).length) throw new Error(`${toolsFile}: no tool has requiredClientCaps`);

  // The task suggestion tools: built only when chat.send delivers suggestions by the gateway.
  if (!/options\?\.taskSuggestionDeliveryMode === "gateway" \? createTaskSuggestionTools\(/.test(src)) {
    throw new Error(`${toolsFile}: createTaskSuggestionTools is no longer gated on taskSuggestionDeliveryMode "gateway"`);
  }
  const suggestionTools = [...fnIn(toolsFile, "createTaskSuggestionTools").matchAll(/\n\t\tname: "([\w-]+)",/g)].map((m) => m[1]);
  if (!suggestionTools.length) throw new Error(`${toolsFile}: createTaskSuggestionTools names no tool`);
  const gate = firstMatch(/const supportsTaskSuggestions = ([^;\n]*);/);
  if (!gate) throw new Error(`no module of ${dist} defines supportsTaskSuggestions`);
  if (!text(gate.file).includes('supportsTaskSuggestions ? "gateway"') && !text(gate.file).includes('supportsTaskSuggestions ? { taskSuggestionDeliveryMode: "gateway" }')) {
    throw new Error(`${gate.file}: supportsTaskSuggestions no longer sets taskSuggestionDeliveryMode "gateway"`);
  }
  const expr = gate.match[1];
  const scope = expr.match(/connect\?\.scopes\?\.includes\("([^"]+)"\) === true/)?.[1];
  const gateCap = expr.match(/hasGatewayClientCap\(params\.client\?\.connect\?\.caps, GATEWAY_CLIENT_CAPS\.(\w+)\)/)?.[1];
  const operatorUi = /^isOperatorUiClient\(clientInfo\) && /.test(expr);
  const terms = expr.split(" && ").length;
  if (!scope || !gateCap || !operatorUi || terms !== 3) throw new Error(`${gate.file}: supportsTaskSuggestions reads otherwise: ${expr.slice(0, 300)}`);
  const operatorFile = firstMatch(/\nfunction isOperatorUiClient\(client\) \{/)?.file;
  if (!operatorFile) throw new Error(`no module of ${dist} defines isOperatorUiClient`);
  const operatorBody = fnIn(operatorFile, "isOperatorUiClient");
  const operatorUiClients = [...operatorBody.matchAll(/clientId === GATEWAY_CLIENT_NAMES\.(\w+)/g)]
    .map((m) => named("GATEWAY_CLIENT_NAMES", m[1], "isOperatorUiClient"));
  if (!/^function isOperatorUiClient\(client\) \{\n\tconst clientId = normalizeGatewayClientName\(client\?\.id\);\n\treturn clientId === GATEWAY_CLIENT_NAMES\.\w+(?: \|\| clientId === GATEWAY_CLIENT_NAMES\.\w+)*;\n\}$/.test(operatorBody)) {
    throw new Error(`${operatorFile}: isOperatorUiClient reads otherwise`);
  }
  const cap = named("GATEWAY_CLIENT_CAPS", gateCap, "supportsTaskSuggestions");
  const taskSuggestions = Object.fromEntries(suggestionTools.map((t) => [t, { caps: [cap], operatorUiClient: true, scope }]));

  // What the clients declare: the TUI (GatewayChatClient) and the Control UI's bundle.
  const tuiFound = firstMatch(/clientName: GATEWAY_CLIENT_NAMES\.(TUI),[\s\S]{0,800}?\n\t\t\tcaps: \[([^\]]*)\]/);
  if (!tuiFound) throw new Error(`no module of ${dist} connects as GATEWAY_CLIENT_NAMES.TUI with caps`);
  const tuiId = named("GATEWAY_CLIENT_NAMES", tuiFound.match[1], "the TUI");
  const uiDir = join(dist, "control-ui", "assets");
  const uiFound = readdirSync(uiDir).filter((f) => /\.js$/.test(f)).sort().flatMap((f) => {
    const ui = readFileSync(join(uiDir, f), "utf8");
    const id = ui.match(/clientName:[^,]{0,80}?`(openclaw-control-ui)`/)?.[1];
    const lists = [...ui.matchAll(/\bcaps:\[((?:`[^`]*`,?)+)\]/g)];
    return id && lists.length ? [{ file: f, id, lists }] : [];
  });
  if (uiFound.length !== 1 || uiFound[0].lists.length !== 1) {
    throw new Error(`${uiDir}: ${uiFound.length} bundles declare the Control UI's caps (${uiFound.map((u) => `${u.file}: ${u.lists.length}`).join(", ")})`);
  }
  // A skill library (skill_workshop's personal or workspace form) goes to a gateway turn whose
  // client has the gateway owner's profile, which no connection in an untracked mode gets
  // (isEphemeralGatewayClient); an admin's default target is the workspace, anyone else's
  // personal. Releases without prepareGatewaySkillAuthoring give no client a library.
  let skillLibrary = null;
  const authoring = firstMatch(/\nfunction prepareGatewaySkillAuthoring\(options, sessionKey, isHumanTurn\) \{/);
  if (authoring) {
    const ephemeralFile = firstMatch(/\nfunction isEphemeralGatewayClient\(client\) \{/)?.file;
    const body = ephemeralFile && fnIn(ephemeralFile, "isEphemeralGatewayClient");
    const modes = [...(body ?? "").matchAll(/mode === GATEWAY_CLIENT_MODES\.(\w+)/g)].map((m) => named("GATEWAY_CLIENT_MODES", m[1], "isEphemeralGatewayClient"));
    const target = firstMatch(/defaultTarget: actor\.profileId && \(multipleProfiles \|\| !actor\.admin\) \? "personal" : actor\.admin \? "workspace" : "unavailable"/);
    if (!modes.length || !target) throw new Error(`${authoring.file}: the skill library's client rule reads otherwise (untracked modes ${modes.join(", ") || "none"}; default target ${target ? "read" : "unread"})`);
    skillLibrary = { untrackedModes: modes, where: `${authoring.file}, ${ephemeralFile}, ${target.file}` };
  }
  return {
    skillLibrary,
    tools: { ...tools, ...taskSuggestions },
    clients: {
      [uiFound[0].id]: capsOf(uiFound[0].lists[0][1], "the Control UI's caps"),
      [tuiId]: capsOf(tuiFound.match[2], "the TUI's caps"),
    },
    operatorUiClients,
    where: {
      requiredClientCaps: toolsFile, taskSuggestions: gate.file, operatorUiClients: operatorFile,
      caps: infoFile, tui: tuiFound.file, controlUi: `control-ui/assets/${uiFound[0].file}`,
    },
  };
}
const clientCaps = await clientCapabilities();
// A spawned subagent's envelope (its extra system prompt): the release's own builder, the
// region dist/ compiles from src/agents/subagents/spawn/subagent-system-prompt.ts, evaluated
// with its few imports stood in, rendered for a child at depth 1 and 2 that may spawn or not,
// with placeholders for the sessions and the requester's channel.
function subagentEnvelope() {
  const start = "//#region src/agents/subagents/spawn/subagent-system-prompt.ts";
  const found = firstMatch(new RegExp(start.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")));
  if (!found) throw new Error(`no module of ${dist} has ${start}`);
  const src = text(found.file);
  const from = src.indexOf(start);
  const region = src.slice(from, src.indexOf("//#endregion", from));
  const builder = ["buildSubagentSpawnEnvelope", "buildSubagentSystemPrompt"].find((n) => region.includes(`function ${n}(`));
  if (!builder) throw new Error(`${found.file}: no subagent prompt builder in ${start}`);
  const stubs = {
    isSubagentSpawnDepthAllowed: (depth, max) => depth < max,
    isCronSessionKey: (key) => typeof key === "string" && key.includes(":cron:"),
    normalizeUniqueStringEntries: (xs) => [...new Set((xs ?? []).map((x) => String(x).trim()).filter(Boolean))],
  };
  const build = new Function(...Object.keys(stubs), `${region}\nreturn ${builder};`)(...Object.values(stubs));
  const render = (childDepth, canSpawn) => {
    const out = build({
      childDepth, maxSpawnDepth: canSpawn ? childDepth + 1 : childDepth,
      requesterSessionKey: "{requesterSession}", childSessionKey: "{childSession}",
      requesterOrigin: { channel: "{requesterChannel}" },
      completionMode: "announce", spawnMode: "run", task: "{task}",
    });
    return typeof out === "string" ? out : out.systemPrompt;
  };
  const variants = {};
  for (const depth of [1, 2]) for (const spawn of [true, false]) variants[`${depth}:${spawn ? "spawn" : "leaf"}`] = render(depth, spawn);
  return { variants, where: found.file };
}
const envelope = subagentEnvelope();

// Code Mode's index of the tools callable from code (the end of exec's description): its
// budget, heading and footers, and the names a callable may not take (the reserved globals,
// and acorn's keywords with the words the catalog adds), each read where the release defines
// them; the binding and formatting functions must read as clawdeck renders them.
async function codeModeIndex() {
  const format = firstMatch(/\nfunction formatCodeModeCatalogIndex\(bindings\) \{/);
  if (!format) return null;
  const src = text(format.file);
  const budget = src.match(/\nconst MAX_CODE_MODE_CATALOG_INDEX_CHARS = ([0-9e.]+);/);
  const heading = src.match(/\nconst CODE_MODE_CATALOG_INDEX_HEADING = \[("(?:[^"\\]|\\.)*"), ("(?:[^"\\]|\\.)*")\]\.join\("\\n"\);/);
  const footer = fnIn(format.file, "codeModeCatalogIndexFooter").match(/return omitted > 0 \? `\$\{omitted\}([^`]*)` : ("(?:[^"\\]|\\.)*");/);
  const body = fnIn(format.file, "formatCodeModeCatalogIndex");
  const order = "bindings.toSorted((a, b) => (a.output ? 0 : 1) - (b.output ? 0 : 1) || a.callableName.localeCompare(b.callableName)).map((entry) => `- ${entry.callableName} ${entry.input ?? \"unknown\"} -> ${entry.output ?? \"?\"}`)";
  const greedy = "if (CODE_MODE_CATALOG_INDEX_HEADING.length + candidateLineLength + 2 + codeModeCatalogIndexFooter(included.length + 1, lines.length).length <= MAX_CODE_MODE_CATALOG_INDEX_CHARS)";
  if (!budget || !heading || !footer || !body.includes(order) || !body.includes(greedy)) {
    throw new Error(`${format.file}: Code Mode's index reads otherwise (budget ${!!budget}, heading ${!!heading}, footer ${!!footer}, order ${body.includes(order)}, budget rule ${body.includes(greedy)})`);
  }
  const bindingsFile = firstMatch(/\nconst RESERVED_GLOBAL_NAMES = new Set\(/)?.file;
  const assign = [
    "canKeepExactName: entry.name === base && !RESERVED_WORDS.has(entry.name) && !used.has(entry.name)",
    "}).toSorted((left, right) => Number(right.canKeepExactName) - Number(left.canKeepExactName) || left.base.localeCompare(right.base) || left.entry.id.localeCompare(right.entry.id));",
    "if (RESERVED_WORDS.has(callableName) || used.has(callableName)) callableName = suffixedCallableName(candidate.base, candidate.entry.id, used);",
  ];
  const globals = bindingsFile && text(bindingsFile).match(/\nconst RESERVED_GLOBAL_NAMES = new Set\("([^"]*)"\.split\(" "\)\);/);
  const extra = bindingsFile && text(bindingsFile).match(/\nconst RESERVED_WORDS = \/\* @__PURE__ \*\/ new Set\(\[\n\t\.\.\.Object\.values\(tokTypes\)\.flatMap\(\(token\) => token\.keyword \? \[token\.keyword\] : \[\]\),\n((?:\t"\w+",?\n)+)\]\);/);
  const base = bindingsFile && fnIn(bindingsFile, "normalizedCallableBase");
  const suffix = bindingsFile && fnIn(bindingsFile, "suffixedCallableName");
  const wantedBase = 'const normalized = name.replace(/[^A-Za-z0-9_$]/g, "_");\n\treturn /^[A-Za-z_$]/.test(normalized) && !normalized.startsWith("__openclaw") ? normalized : `tool_${normalized}`;';
  const wantedSuffix = 'const digest = createHash("sha256").update(id).digest("hex");\n\tfor (let length = 8; length <= digest.length; length += 2) {';
  if (!globals || !extra || !base?.includes(wantedBase) || !suffix?.includes(wantedSuffix) || !assign.every((a) => text(bindingsFile).includes(a))) {
    throw new Error(`${bindingsFile ?? dist}: Code Mode's callable names read otherwise`);
  }
  const { createRequire } = await import("node:module");
  const acorn = createRequire(join(dist, bindingsFile))("acorn");
  const keywords = Object.values(acorn.tokTypes).flatMap((t) => (t.keyword ? [t.keyword] : []));
  return {
    budget: Number(budget[1]),
    heading: [JSON.parse(heading[1]), JSON.parse(heading[2])].join("\n"),
    omittedFooter: footer[1],
    completeFooter: JSON.parse(footer[2]),
    reservedGlobals: globals[1].split(" "),
    reservedWords: [...new Set([...keywords, ...[...extra[1].matchAll(/"(\w+)"/g)].map((m) => m[1])])],
    where: `${format.file}, ${bindingsFile}`,
  };
}
const codeModeIndexRules = await codeModeIndex();

// Code Mode's exec description before its index, rendered by the release's own
// createCodeModeExecDescription with the functions it calls stood in and each of its optional
// parts (`const xGuidance = CONDITION ? TEXT : ""`) marked: the text with a `{{xGuidance}}` slot
// for each, each part's text, and which parts each combination of the run's facts (the shell
// tool callable, nodes callable, an MCP tool, swarm globals, skills) writes. The numbers come
// in as placeholders, and the limits they are read with (resolveCodeModeConfig) beside it.
function codeModeDescription() {
  const found = firstMatch(/\nfunction createCodeModeExecDescription\(ctx, catalog, config = resolveCodeModeConfig\(ctx\.runtimeConfig \?\? ctx\.config, ctx\.agentId\)\) \{/);
  if (!found) return null;
  const src = fnIn(found.file, "createCodeModeExecDescription");
  const guidance = /const (\w+Guidance) = (.+?) \? ("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`) : "";/g;
  const names = [...src.matchAll(guidance)].map((m) => m[1]);
  const marked = src.replace(guidance, (_, name, cond, literal) => `const ${name} = ${cond} ? "\u0001${name}\u0002" + ${literal} + "\u0003" : "";`);
  const numbers = { timeoutMs: 987654321, memoryLimitBytes: 876543219, maxSnapshotBytes: 765432198, maxOutputBytes: 654321987 };
  let swarm = false;
  const stubs = {
    describeCodeModeNamespacesForPrompt: () => "",
    isCodeModeSwarmAvailable: () => swarm,
    resolveSwarmConfig: () => ({ enabled: swarm }),
    resolveCodeModeConfig: () => numbers,
    createCodeModeCatalogBindings: (entries) => entries.map((e) => ({ ...e, callableName: e.id === "openclaw:core:exec" ? "@SHELL@" : e.name })),
    createCodeModeCatalogProjection: (entries) => ({ bindings: stubs.createCodeModeCatalogBindings(entries) }),
    createCodeModeNamespaceRuntime: () => ({ descriptors: [] }),
    compactToolSearchCatalogEntry: (e) => e,
    formatCodeModeCatalogIndex: () => "",
  };
  const render = new Function(...Object.keys(stubs), `${marked}\nreturn createCodeModeExecDescription;`)(...Object.values(stubs));
  const facts = ["shell", "nodes", "mcp", "swarm", "skills"];
  const entry = (id, source = "openclaw") => ({ id, source, name: id.split(":").pop() });
  const describe = (on) => {
    swarm = on.has("swarm");
    const catalog = [entry("openclaw:core:read"),
      ...(on.has("shell") ? [entry("openclaw:core:exec")] : []),
      ...(on.has("nodes") ? [entry("openclaw:core:nodes")] : []),
      ...(on.has("mcp") ? [entry("mcp:server:tool", "mcp")] : [])];
    const text = render({ codeModeSkills: on.has("skills") ? ["skill"] : [], agentId: "main", runtimeConfig: {} }, catalog, numbers);
    return text.replaceAll(String(numbers.timeoutMs), "@TIMEOUT_MS@")
      .replaceAll(String(Math.min(numbers.memoryLimitBytes, numbers.maxSnapshotBytes)), "@INBOX_BYTES@")
      .replaceAll(String(numbers.maxOutputBytes), "@MAX_OUTPUT_BYTES@");
  };
  if (src.includes("config.memoryLimitBytes") && !src.includes("Math.min(config.memoryLimitBytes, config.maxSnapshotBytes)")) {
    throw new Error(`${found.file}: the description reads memoryLimitBytes otherwise`);
  }
  const parts = {};
  const part = /\u0001(\w+)\u0002([^\u0003]*)\u0003/g;
  const templateOf = (text) => text.replace(part, (_, name, body) => { parts[name] = body; return `{{${name}}}`; });
  const template = templateOf(describe(new Set(facts)));
  const combinations = {};
  for (let mask = 0; mask < 1 << facts.length; mask++) {
    const on = new Set(facts.filter((_, i) => mask & (1 << i)));
    const text = describe(on);
    const written = [...text.matchAll(part)].map((m) => m[1]);
    const filled = template.replace(/\{\{(\w+)\}\}/g, (_, name) => (written.includes(name) ? parts[name] : ""));
    if (filled !== text.replace(part, (_, __, body) => body) || /[\u0001-\u0003]/.test(filled)) {
      throw new Error(`${found.file}: exec's description for ${[...on].join("+") || "none"} is not its template's`);
    }
    combinations[[...on].join("+")] = written;
  }
  if (Object.keys(parts).length !== names.length) throw new Error(`${found.file}: ${names.length} parts, ${Object.keys(parts).length} written`);
  // The limits each number is read with (swarm's default is the swarm rule's).
  const config = fnIn(found.file, "resolveCodeModeConfig");
  const constant = (name) => text(found.file).match(new RegExp(`\\nconst ${name} = ([0-9e.]+);`))?.[1];
  const limits = {};
  for (const key of ["timeoutMs", "memoryLimitBytes", "maxSnapshotBytes", "maxOutputBytes"]) {
    const m = config.match(new RegExp(`\\t${key}: clampNumber\\(readPositiveInteger\\(raw\\.${key}, (DEFAULT_\\w+)\\), ([0-9e.]+), ([0-9e.]+)\\),`));
    const fallback = m && constant(m[1]);
    if (!m || !fallback) throw new Error(`${found.file}: resolveCodeModeConfig reads ${key} otherwise`);
    limits[key] = { default: Number(fallback), min: Number(m[2]), max: Number(m[3]) };
  }
  const spawnGate = firstMatch(/\nfunction isCodeModeSwarmAvailable\(ctx, catalog\) \{\n\treturn resolveSwarmConfig\(ctx\.runtimeConfig \?\? ctx\.config, ctx\.agentId\)\.enabled && \(!ctx\.toolExecutionAllow \|\| isToolExecutionAllowed\(ctx\.toolExecutionAllow, "sessions_spawn"\)\) && catalog\?\.some\(\(entry\) => entry\.source === "openclaw" && entry\.name === "sessions_spawn"\) === true/);
  return {
    template, parts, combinations, limits,
    swarmNeedsSpawn: Boolean(spawnGate) && src.includes("isCodeModeSwarmAvailable(ctx, catalog)"),
    where: found.file,
  };
}
const codeModeDescriptionRules = codeModeDescription();

// What exec's description says, after its text and before the index, when MCP server tools
// are callable from code: the release's own describeCodeModeNamespacesForPrompt rendered for
// one server named by a placeholder (the servers' identifiers joined by ", " fill it), and the
// rule that names a server (toIdentifier of its safe name, then uniqueIdentifier against the
// names taken and the reserved ones), each read as clawdeck applies it.
async function codeModeNamespaces() {
  const found = firstMatch(/\nfunction describeCodeModeNamespacesForPrompt\(catalog\) \{/);
  if (!found) return null;
  const describe = fnIn(found.file, "describeMcpNamespaceForPrompt");
  const outer = fnIn(found.file, "describeCodeModeNamespacesForPrompt");
  const servers = "@SERVERS@";
  const stubs = {
    createMcpNamespacePlan: () => ({ servers: new Map([["k", { identifier: servers }]]) }),
    createMcpNamespaceModel: () => ({ docs: [{ identifier: servers }] }),
    mcpNodeLabel: () => { throw new Error("no node"); },
  };
  const render = new Function(...Object.keys(stubs), `${describe}\n${outer}\nreturn describeCodeModeNamespacesForPrompt;`)(...Object.values(stubs));
  const rendered = render([{ source: "mcp" }]);
  const listed = new RegExp(`visible servers: \\$\\{servers\\.join\\(", "\\)\\}`);
  if (typeof rendered !== "string" || rendered.split(servers).length !== 2 || !listed.test(describe)) {
    throw new Error(`${found.file}: the MCP namespace prompt reads otherwise`);
  }
  // Where the description puts it: after the text, before the index, a blank line between.
  const exec = fnIn(found.file, "createCodeModeExecDescription");
  if (!exec.includes('(namespacePrompt ? `\\n\\n${namespacePrompt}` : "") + (catalogIndex ? `\\n\\n${catalogIndex}` : "")')) {
    throw new Error(`${found.file}: exec's description places the namespace prompt otherwise`);
  }
  const src = text(found.file);
  const toIdentifier = 'const words = value.trim().split(/[^A-Za-z0-9]+/u).map((word) => word.trim()).filter(Boolean);\n\tconst safe = (words.length === 0 ? fallback : words.map((word, index) => index === 0 ? word.charAt(0).toLowerCase() + word.slice(1) : word.charAt(0).toUpperCase() + word.slice(1)).join("")).replace(/^[^A-Za-z_$]+/u, "").replace(/[^A-Za-z0-9_$]/gu, "");\n\treturn /^[A-Za-z_$][A-Za-z0-9_$]*$/u.test(safe) ? safe : fallback;';
  const unique = "while (used.has(candidate) || RESERVED_NAMESPACE_GLOBALS.has(candidate) || RESERVED_NAMESPACE_FUNCTION_IDENTIFIERS.has(candidate) || FORBIDDEN_NAMESPACE_PATH_SEGMENTS.has(candidate)) {\n\t\tcandidate = `${base}${index}`;";
  const named = "uniqueIdentifier(toIdentifier(safeServerName, \"server\"), ";
  const key = 'JSON.stringify(["gateway", mcp.safeServerName])';
  const order = "const servers = [...serversByKey.values()].toSorted((a, b) => a.key.localeCompare(b.key));";
  const globals = src.match(/\nconst RESERVED_NAMESPACE_GLOBALS = \/\* @__PURE__ \*\/ new Set\((\[[^\]]*\])\);/);
  const forbidden = src.match(/\nconst FORBIDDEN_NAMESPACE_PATH_SEGMENTS = \/\* @__PURE__ \*\/ new Set\((\[[^\]]*\])\);/);
  const words = src.match(/\nconst RESERVED_NAMESPACE_FUNCTION_IDENTIFIERS = \/\* @__PURE__ \*\/ new Set\(\[\.\.\.Object\.values\(tokTypes\)\.flatMap\(\(token\) => token\.keyword \? \[token\.keyword\] : \[\]\), ((?:"\w+"(?:, )?)+)\]\);/);
  if (!fnIn(found.file, "toIdentifier").includes(toIdentifier) || !fnIn(found.file, "uniqueIdentifier").includes(unique)
    || ![named, key, order].every((t) => src.includes(t)) || !globals || !forbidden || !words) {
    throw new Error(`${found.file}: the MCP servers' identifiers read otherwise`);
  }
  const { createRequire } = await import("node:module");
  const acorn = createRequire(join(dist, found.file))("acorn");
  const keywords = Object.values(acorn.tokTypes).flatMap((t) => (t.keyword ? [t.keyword] : []));
  return {
    text: rendered.replace(servers, "{servers}"),
    reservedIdentifiers: [...new Set([...JSON.parse(globals[1]), ...JSON.parse(forbidden[1]), ...keywords,
      ...[...words[1].matchAll(/"(\w+)"/g)].map((m) => m[1])])],
    fallback: "server",
    where: found.file,
  };
}
const codeModeNamespacesRules = await codeModeNamespaces();

// xAI's remote tools (the xai plugin's x_search and code_execution): built when the run has a
// model provider, the tool's own config does not say enabled: false, the provider is xAI or
// that config says enabled: true, and an xAI key resolves (the plugin's webSearch.apiKey, an
// xai auth profile, XAI_API_KEY). Each condition is read where the release writes it.
function xaiTools() {
  const file = join("extensions", "xai", "index.js");
  let src;
  try { src = readFileSync(join(dist, file), "utf8"); } catch { return null; }
  const wanted = [
    'function shouldExposeXaiBilledTool(params) {\n\tconst activeProvider = params.activeProvider?.trim();\n\tif (!activeProvider || params.enabled === false) return false;\n\treturn isXaiProviderId(activeProvider) || params.enabled === true;\n}',
    'if ((config && typeof config === "object" ? resolveEffectiveXSearchConfig(config) : void 0)?.enabled === false) return false;\n\treturn hasResolvableXaiApiKey(config, auth);',
    'api.registerTool((ctx) => createLazyCodeExecutionTool(ctx), { name: "code_execution" });',
    'api.registerTool((ctx) => createLazyXSearchTool(ctx), { name: "x_search" });',
  ];
  const auth = firstMatch(/\nfunction isXaiToolEnabled\(params\) \{\n\tif \(params\.enabled === false\) return false;\n\tconst configured = resolveConfiguredXaiToolApiKeyResult\(params\);\n\tif \(configured\.status === "available"\) return true;\n\tif \(configured\.status === "blocked"\) return false;\n\treturn hasXaiAuthProfile\(params\.auth\) \|\| Boolean\(readProviderEnvValue\(\[XAI_API_KEY_ENV_VAR\]\)\);/);
  const env = auth && text(auth.file).match(/\nconst XAI_API_KEY_ENV_VAR = "(\w+)";/);
  const keyPath = auth && text(auth.file).match(/\(cfg, "xai"\)\?\.apiKey, "(plugins\.entries\.xai\.config\.webSearch\.apiKey)", cfg\)/);
  const ids = firstMatch(/\nconst XAI_PROVIDER_IDS = \/\* @__PURE__ \*\/ new Set\((\[[^\]]*\])\);/);
  const configs = firstMatch(/\nfunction resolvePluginSearchConfig\(config, key\) \{\n\tconst pluginConfig = config\?\.plugins\?\.entries\?\.xai\?\.config;/);
  const codeConfig = firstMatch(/const entry = entries && entries\.xai;\n\tconst config = entry && typeof entry === "object" \? entry\.config : void 0;\n\tconst value = config && typeof config === "object" \? config\.codeExecution : void 0;/);
  if (!wanted.every((w) => src.includes(w)) || !auth || !env || !keyPath || !ids || !configs || !codeConfig) {
    throw new Error(`${file}: xAI's remote tools are built on conditions this capture cannot read`);
  }
  return {
    tools: { code_execution: "plugins.entries.xai.config.codeExecution", x_search: "plugins.entries.xai.config.xSearch" },
    plugin: "xai",
    providers: JSON.parse(ids.match[1]),
    keyEnv: env[1],
    keyConfig: keyPath[1],
    profileProvider: "xai",
    where: `${file}, ${auth.file}, ${ids.file}`,
  };
}
const xaiToolRules = xaiTools();

// Tools only some gateway turns build: github_identity_status, built when the run prepared its
// GitHub publication availability. 2026.9 prepares it for every run a gateway hosts (the embedded
// run's gateway context, when not localEmbedded: the agent method and replies alike); 2026.8
// only in its reply pipeline (the agent runner of a channel message or a chat.send). A local run
// (openclaw agent --local) prepares none. Read where the release prepares it.
function hostTools() {
  const built = firstMatch(/\n\t\t\.\.\.options\?\.githubPublicationAvailable !== void 0 \? \[createGitHubIdentityStatusTool\(\)\] : \[\],/);
  if (!built) return null;
  const anyGateway = firstMatch(/agentHarnessExposesOpenClawTools\(attempt\.agentHarnessId\) && gateway && !gateway\.localEmbedded\) \{\n\t+const isCurrent = [^\n]*\n\t+attempt\.githubPublicationAvailable = await prepareGitHubPublicationAvailability\(\{/);
  const reply = firstMatch(/githubPublicationAvailable: await \(githubPublicationAvailability \?\?= turn\.sessionKey && params\.effectiveRun\.agentId \? prepareGitHubPublicationAvailability\(\{[^]*?\}\) : Promise\.resolve\(false\)\),/);
  if (!anyGateway && !reply) {
    throw new Error(`${built.file}: github_identity_status is built on a preparation this capture cannot find`);
  }
  // A scheduled job's turn runs on the gateway too (its cron service), outside the reply pipeline.
  const hosts = anyGateway ? ["agentMethod", "reply", "scheduled"] : ["reply"];
  return { tools: { github_identity_status: hosts }, where: `${built.file}, ${(anyGateway ?? reply).file}` };
}
const hostToolRules = hostTools();

// A heartbeat's turn (a scheduled wake, `openclaw system event --mode now`): the heartbeat
// runner makes heartbeat_respond the turn's reply where messages.visibleReplies (a group chat's:
// messages.groupChat.visibleReplies, else the former) is "message_tool": it builds the tool,
// forces it and hands visible replies to the message tool, which adds both to the profile
// layers' allowlists (runtimeProfileAlsoAllow). Each part is read where the release writes it.
function heartbeatTurn() {
  const name = firstMatch(/const HEARTBEAT_RESPONSE_TOOL_NAME = "(\w+)";/);
  if (!name) return null;
  const enable = firstMatch(/const enableHeartbeatTool = options\?\.enableHeartbeatTool === true \|\| options\?\.trigger === "heartbeat" && options\?\.config\?\.messages\?\.visibleReplies === "message_tool";\n\tconst forceHeartbeatTool = options\?\.forceHeartbeatTool === true \|\| enableHeartbeatTool;/);
  const alsoAllow = firstMatch(/const runtimeProfileAlsoAllow = \[\n\t\t\.\.\.options && messageToolOwnsVisibleReply\(options\) \? \["message"\] : \[\],\n\t\t\.\.\.runtimeToolAllowlistIncludesMessage \? \["message"\] : \[\],\n\t\t\.\.\.forceHeartbeatTool \? \[HEARTBEAT_RESPONSE_TOOL_NAME\] : \[\],/);
  const owns = firstMatch(/function messageToolOwnsVisibleReply\(params\) \{\n\treturn params\.forceMessageTool === true \|\| params\.sourceReplyDeliveryMode === "message_tool_only";\n\}/);
  const rule = firstMatch(/function shouldUseHeartbeatResponseToolPrompt\(params\) \{\n\tconst chatType = normalizeChatType\(params\.chatType\);\n\tconst visibleReplies = chatType === "group" \|\| chatType === "channel" \? params\.cfg\.messages\?\.groupChat\?\.visibleReplies \?\? params\.cfg\.messages\?\.visibleReplies : params\.cfg\.messages\?\.visibleReplies;\n\tif \(visibleReplies === "message_tool"\) return true;\n\tif \(visibleReplies === "automatic"\) return false;\n\treturn usesCodexHarness\(params\);/);
  const runner = firstMatch(/\.\.\.(?:prepared\.)?usesHeartbeatResponseTool \? \{\n\t+enableHeartbeatTool: true,\n\t+forceHeartbeatTool: true(?:,\n\t+sourceReplyDeliveryMode: "message_tool_only"\n\t+\} : \{\},|\n\t+\} : \{\},\n\t+\.\.\.usesHeartbeatResponseTool \? \{ sourceReplyDeliveryMode: "message_tool_only" \} : \{\},)/);
  if (!enable || !alsoAllow || !owns || !rule || !runner) {
    throw new Error(`${name.file}: a heartbeat's turn gets ${name.match[1]} on conditions this capture cannot read`);
  }
  return {
    tool: name.match[1],
    key: "messages.visibleReplies",
    groupKey: "messages.groupChat.visibleReplies",
    value: "message_tool",
    profileAlsoAllow: [name.match[1], "message"],
    where: `${rule.file}, ${runner.file}, ${alsoAllow.file}`,
  };
}
const heartbeatRules = heartbeatTurn();

// A scheduled job's turn (an automation's agent turn, `cron.run`): the job's tool cap
// (toolsAllow) keeps only the built tools it names (none when it is empty, all for "*"); the
// cron runner passes no senderIsOwner, so the owner-only core tools stay (they go only for a
// turn that is not the owner's: senderIsOwner === false) while a plugin tool whose factory wants
// a confirmed owner (senderIsOwner !== true) is not built; the turn has a scheduled caller
// (transcripts); and where the release has it, a cron session key loses the tools a requester
// continuation needs (sessions_yield).
function scheduledTurn() {
  const cap = firstMatch(/function applyEmbeddedAttemptToolsAllow\(tools, toolsAllow, options\) \{\n\tif \(!toolsAllow\) return tools;\n\treturn \(readToolAllowlistIntersection\(toolsAllow\) \?\? \[toolsAllow\]\)\.reduce\(\(currentTools, restriction\) => \{\n\t\tif \(restriction\.length === 0\) return \[\];\n\t\tif \(hasWildcardToolAllowlist\(restriction\)\) return currentTools;/);
  const ownerCore = firstMatch(/const ownerOnlyCoreToolDenylist = options\?\.senderIsOwner === false \? GATEWAY_OWNER_ONLY_CORE_TOOLS/);
  const caller = firstMatch(/if \(options\.gatewayCallerScheduled\) return \{ caller:/);
  if (!cap || !ownerCore || !caller) return null;
  // The package's plugins' tools, and those of the channel plugins installed beside it
  // (WhatsApp's whatsapp_login), each a factory that returns null unless the sender is a
  // confirmed owner.
  const sources = [];
  for (const dir of readdirSync(join(dist, "extensions"))) {
    try { sources.push({ src: readFileSync(join(dist, "extensions", dir, "index.js"), "utf8") }); } catch { continue; }
  }
  for (const pluginDist of channelPluginDists) {
    const setup = join(pluginDist, ".setup");
    let chunks = [];
    try { chunks = readdirSync(setup).filter((f) => f.endsWith(".mjs")); } catch { continue; }
    for (const f of chunks) sources.push({ src: readFileSync(join(setup, f), "utf8"), channelPlugin: true });
  }
  const confirmedOwnerTools = [];
  // Those of the channel plugins: tools the pack does not hold (their plugins are not in it).
  const channelPluginTools = [];
  for (const { src, channelPlugin } of sources) {
    for (const m of src.matchAll(/\n\tif \((?:ctx|context)\.senderIsOwner !== true\) return null;\n(?:\t[^\n]*\n)*?\t\tname: "(\w+)",/g)) {
      if (!confirmedOwnerTools.includes(m[1])) confirmedOwnerTools.push(m[1]);
      if (channelPlugin && !channelPluginTools.includes(m[1])) channelPluginTools.push(m[1]);
    }
  }
  // A scheduled turn whose cap names show_widget keeps it, pinned-only, outside a cron run's
  // own session (where the release has it).
  const pinned = firstMatch(/const pinnedWidgetOnly = \(options\?\.pinnedWidgetAuthoring === true \|\| options\?\.gatewayCallerScheduled === true && scheduledWidgetExplicitlyAllowed\) && !inlineWidgetClientAvailable && !widgetPresentation\.currentChannelPresenter && Boolean\(sessionKey\) && !isCronRunSessionKey\(sessionKey\);/);
  const explicit = pinned && firstMatch(/const scheduledWidgetExplicitlyAllowed = isToolExplicitlyAllowedByFactoryPolicy\(\{\n\t\ttoolName: "(\w+)",\n\t\tallowlist: options\?\.runtimeToolAllowlist,/);
  if (pinned && !explicit) throw new Error(`${pinned.file}: a scheduled turn's pinned widget tool is named where this capture cannot read it`);
  // A turn with a scheduled tool policy (every job with a cap) asks for no sender policy:
  // neither tools.toolsBySender nor a group's toolsBySender applies.
  const senderRules = firstMatch(/senderPolicyMode: params\.scheduledToolPolicy \|\| isOwnerInternalSession \? "never" : "always"/);
  // A job delivering to a webhook runs without the message tool: its delivery plan disables
  // it (cron_webhook), and the run then builds none.
  const webhook = firstMatch(/reason: "cron_webhook",\n\t\tmessageToolEnabled: false,/);
  const disabled = webhook && firstMatch(/disableMessageTool: !sourceDelivery\.messageTool\.enabled,/);
  const unbuilt = disabled && firstMatch(/const messageTool = options\?\.disableMessageTool \? null : createMessageTool\(/);
  if (webhook && !unbuilt) throw new Error(`${webhook.file}: a webhook job's message tool is turned off where this capture cannot read it`);
  const yieldFilter = firstMatch(/function filterRequesterYieldTools\(tools, requesterSessionKey\) \{\n\treturn isCronSessionKey\(requesterSessionKey\) \? tools\.filter\(\(tool\) => tool\.name !== "(\w+)"\) : tools;/);
  return {
    confirmedOwnerTools: confirmedOwnerTools.sort(),
    ...(channelPluginTools.length ? { channelPluginTools: channelPluginTools.sort() } : {}),
    cronSessionDrops: yieldFilter ? [yieldFilter.match[1]] : [],
    pinnedWidget: explicit ? { tool: explicit.match[1], outsideCronRunSessions: true } : null,
    skipsSenderRules: Boolean(senderRules),
    webhookDrops: unbuilt ? ["message"] : [],
    where: [cap.file, ownerCore.file, caller.file, ...[yieldFilter, pinned, senderRules, webhook, disabled, unbuilt].filter(Boolean).map((m) => m.file)]
      .filter((f, i, all) => all.indexOf(f) === i).join(", "),
  };
}
const scheduledRules = scheduledTurn();

// Swarm globals (tools.swarm): their default, and that agents_wait is built only while they are
// on (for the requester's agent: resolveSwarmConfig lays the agent's tools.swarm over the global).
function swarmRules() {
  const found = firstMatch(/\nconst DEFAULT_SWARM_CONFIG = \{\n\tenabled: (true|false),/);
  if (!found) return null;
  const gate = firstMatch(/\n\t\tagentsWait: resolveSwarmConfig\(params\.config, params\.effectiveRequesterAgentId\)\.enabled \? \[createAgentsWaitTool\(/);
  const merge = fnIn(found.file, "resolveSwarmConfig");
  if (!gate || !merge.includes("const raw = agentRaw ? {\n\t\t...globalRaw,\n\t\t...agentRaw\n\t} : globalRaw;") || !merge.includes('enabled: typeof raw.enabled === "boolean" ? raw.enabled : DEFAULT_SWARM_CONFIG.enabled,')) {
    throw new Error(`${found.file}: swarm's switch reads otherwise`);
  }
  return { default: found.match[1] === "true", where: `${found.file}, ${gate.file}` };
}
const swarm = swarmRules();

// The grants of automation management, each read with the condition it is granted on; a
// release whose condition reads otherwise stops the capture rather than guessing.
function automationManagement() {
  const grants = [
    { source: "control-ui-admin", condition: /const controlUiAdmin = authenticatedControlUi && scopes\.includes\("operator\.admin"\);/,
      granted: /managementEntitlement: \{ source: "control-ui-admin" \}/ },
    { source: "channel-owner", condition: /const authorityRunId = freshChannelCronAuthorityTurn && command\.senderIsOwner \?/,
      granted: /source: "channel-owner",\s*isCurrent: isCurrentChannelOwner/ },
  ];
  const where = {};
  for (const g of grants) {
    const granted = firstMatch(g.granted);
    if (!granted) continue;
    const condition = firstMatch(g.condition);
    if (!condition) throw new Error(`${granted.file} grants ${g.source} automation management on a condition this capture cannot read`);
    where[g.source] = `${granted.file} (${condition.file})`;
  }
  return Object.keys(where).length ? { grantedTo: Object.keys(where), where } : null;
}
const management = automationManagement();
const profileIds = c("PROFILE_OPTIONS").map((p) => p.id);
const sections = c("listCoreToolSections")({ swarmEnabled: true, githubPublicationAvailable: true });

console.log(JSON.stringify({
  groups: c("CORE_TOOL_GROUPS"),
  profiles: Object.fromEntries(profileIds.map((p) => [p, c("resolveCoreToolProfilePolicy")(p)?.allow ?? null])),
  profileValues: profileIds,
  sections,
  defaultAllow: cm[consts.alias.DEFAULT_TOOL_ALLOW],
  defaultDeny: cm[consts.alias.DEFAULT_TOOL_DENY],
  subagent: { alwaysDeny: always.list, leafDeny: leaf.list, defaultMaxSpawnDepth: depth ? Number(depth.match[1]) : null },
  pluginAllowlistPatterns: Boolean(globAllowlist),
  sessionVisibility: { default: visibility ? visibility.match[1] : null, scopes },
  promptToolOrder,
  directoryGuidance,
  claudeImageRule: claudeImages,
  subagentEnvelope: envelope.variants,
  clientCapabilities: clientCaps,
  automationManagement: management,
  codeModeIndex: codeModeIndexRules,
  codeModeDescription: codeModeDescriptionRules,
  codeModeNamespaces: codeModeNamespacesRules,
  xaiTools: xaiToolRules,
  hostTools: hostToolRules,
  heartbeatTurn: heartbeatRules,
  scheduledTurn: scheduledRules,
  swarm,
  ownerOnlyCoreTools: gw[gatewayMod.alias.GATEWAY_OWNER_ONLY_CORE_TOOLS],
  gatewayHttpDeny: gw[gatewayMod.alias.DEFAULT_GATEWAY_HTTP_TOOL_DENY],
  exec: {
    defaultSafeBins: safeBins.list, safeBuiltins: safeBuiltins.list, safeBinTrustedDirs: trustedDirs.list,
    modes: modes.table, inlineEval: inlineEval.specs, permissionModes,
  },
  where: {
    catalog: catalog.file, constants: consts.file, ownerOnly: gatewayMod.file, subagent: always.file,
    maxSpawnDepth: depth?.file ?? null,
    pluginAllowlist: (globAllowlist ?? exactAllowlist).file,
    exec: safeBuiltins.file, execModes: modes.file, inlineEval: inlineEval.file,
    permissionModes: permissionTable.file, promptToolOrder: orderLiteral.file,
    directoryGuidance: guidanceChoice.file, subagentEnvelope: envelope.where,
  },
}, null, 1));
