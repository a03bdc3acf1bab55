// OpenClaw's own tool-policy pipeline on the policy benchmark's workload (benches/policy.rs).
//
// Usage: node openclaw_pipeline.mjs <openclaw package dir> <workload.json>
//
// Loads the installed package's dist/tool-policy-pipeline-*.mjs (hashed name, minified export
// letters: both are looked up, not assumed), builds the steps the way OpenClaw's gateway does
// (buildDefaultToolPolicyPipelineSteps + sandbox and subagent steps) from the workload's layers,
// then answers one command per stdin line with one JSON line on stdout:
//   check        -> {"reply":"check","visible":[names after the pipeline],"openclaw":version,..}
//   time N       -> {"reply":"time","iterations":N,"cpu_ns":..,"wall_ns":..} (per resolution)
//   quit         -> exits
// Anything else OpenClaw prints (its loggers) does not start with {"reply" and is ignored.

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

function fail(message) {
  process.stderr.write(`openclaw_pipeline.mjs: ${message}\n`);
  process.exit(2);
}

const [packageDir, workloadPath] = process.argv.slice(2);
if (!packageDir || !workloadPath) fail("usage: openclaw_pipeline.mjs <package dir> <workload.json>");

const dist = join(packageDir, "dist");
const candidates = readdirSync(dist).filter(
  (f) => f.startsWith("tool-policy-pipeline-") && f.endsWith(".mjs"),
);
if (candidates.length !== 1) {
  fail(`expected one dist/tool-policy-pipeline-*.mjs in ${dist}, found ${candidates.length}`);
}
const modulePath = join(dist, candidates[0]);

// The bundle exports minified letters: `export { buildDefaultToolPolicyPipelineSteps as n, ... }`.
// Read which letter carries which function from the file itself.
const source = readFileSync(modulePath, "utf8");
const exportClause = source.match(/export\s*\{([^}]*)\}\s*;?\s*$/);
if (!exportClause) fail(`${modulePath}: no export clause`);
const letters = new Map(
  exportClause[1].split(",").map((part) => {
    const [local, exported] = part.trim().split(/\s+as\s+/);
    return [local, exported ?? local];
  }),
);
const pipelineModule = await import(pathToFileURL(modulePath).href);
function exported(name) {
  const fn = pipelineModule[letters.get(name)];
  if (typeof fn !== "function") fail(`${modulePath}: ${name} is not exported`);
  return fn;
}
const applyToolPolicyPipeline = exported("applyToolPolicyPipeline");
const buildDefaultToolPolicyPipelineSteps = exported("buildDefaultToolPolicyPipelineSteps");

// Workload: {"tools":[{"name","pluginId"|null}], "layers":[{"id","allow":[..]|null,"deny":[..]}]}
const workload = JSON.parse(readFileSync(workloadPath, "utf8"));
const tools = workload.tools.map((t) => ({ name: t.name, pluginId: t.pluginId ?? undefined }));
const policies = new Map();
for (const layer of workload.layers) {
  const policy = { deny: layer.deny };
  if (layer.allow) policy.allow = layer.allow;
  policies.set(layer.id, policy);
}
const known = new Set([
  "profile",
  "provider_profile",
  "global",
  "global_provider",
  "agent",
  "agent_provider",
  "group",
  "sender",
  "sandbox",
  "subagent",
]);
for (const id of policies.keys()) if (!known.has(id)) fail(`workload layer ${id} has no OpenClaw step`);

// As OpenClaw's gateway calls it (tool-resolution-*.mjs): the default steps, then the sandbox
// and subagent policies as extra steps.
const steps = [
  ...buildDefaultToolPolicyPipelineSteps({
    profilePolicy: policies.get("profile"),
    profile: "bench",
    providerProfilePolicy: policies.get("provider_profile"),
    globalPolicy: policies.get("global"),
    globalProviderPolicy: policies.get("global_provider"),
    agentPolicy: policies.get("agent"),
    agentProviderPolicy: policies.get("agent_provider"),
    groupPolicy: policies.get("group"),
    senderPolicy: policies.get("sender"),
    agentId: "bench",
  }),
  { policy: policies.get("sandbox"), label: "sandbox tools.allow" },
  { policy: policies.get("subagent"), label: "subagent tools.allow" },
];

const warnings = [];
function resolve() {
  return applyToolPolicyPipeline({
    tools,
    toolMeta: (tool) => (tool.pluginId ? { pluginId: tool.pluginId } : undefined),
    warn: (w) => warnings.push(w),
    steps,
  });
}

let sink = 0;
function time(iterations) {
  sink += resolve().length; // warm-up
  const cpuStart = process.cpuUsage();
  const wallStart = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) sink += resolve().length;
  const wall = Number(process.hrtime.bigint() - wallStart);
  const cpu = process.cpuUsage(cpuStart);
  return {
    reply: "time",
    iterations,
    cpu_ns: ((cpu.user + cpu.system) * 1000) / iterations,
    wall_ns: wall / iterations,
  };
}

function reply(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const [command, arg] = line.trim().split(/\s+/);
  if (command === "check") {
    reply({
      reply: "check",
      visible: resolve().map((t) => t.name),
      warnings: warnings.length,
      openclaw: JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version,
      node: process.version,
      module: candidates[0],
    });
  } else if (command === "time") {
    const iterations = Number.parseInt(arg, 10);
    if (!(iterations > 0)) fail(`bad iteration count: ${line}`);
    reply(time(iterations));
  } else if (command === "quit") {
    break;
  } else {
    fail(`unknown command: ${line}`);
  }
}
if (sink < 0) reply({ reply: "sink", sink }); // keeps the timed results observable
process.exit(0);
