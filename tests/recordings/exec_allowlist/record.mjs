// Records what the real OpenClaw's own exec allowlist evaluation answers for each case of
// cases.json: the same function the gateway calls before it runs an `exec` with
// `tools.exec.security: "allowlist"` (evaluateShellAllowlistWithAuthorization). Never edit the
// output by hand: run
//   node tests/recordings/exec_allowlist/record.mjs OPENCLAW_PACKAGE_DIR OUT_DIR
// where OPENCLAW_PACKAGE_DIR is the installed `openclaw` npm package (the directory holding
// dist/), e.g. ~/.cache/realclaw/openclaw/node_modules/openclaw; it writes OUT_DIR/<version>.json
// (tests/recordings/record.sh does this for each installed release).
//
// The environment is fixed so answers do not depend on the machine's PATH: PATH is
// /usr/bin:/bin, cwd /tmp, platform linux. Each answer: whether the command could be analysed
// (and why not), whether every segment is satisfied, what satisfied each segment (allowlist,
// safeBins, safeBuiltins, or null) and each segment's argv; then whether the gateway's enforced
// rewrite pins the line (buildAuthorizedShellCommandFromPlan, "enforced"), the inline eval
// found (detectInlineEvalInSegments) and what "allow always" could store
// (resolveAllowAlwaysPersistenceDecision: how many executables' real paths, or one-shot and
// why).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pkgDir, outDir] = process.argv.slice(2);
if (!pkgDir || !outDir) {
  console.error("usage: record.mjs OPENCLAW_PACKAGE_DIR OUT_DIR");
  process.exit(2);
}
const dist = path.join(pkgDir, "dist");
const version = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")).version;
const outFile = path.join(outDir, `${version}.json`);

/// The module of dist/ that defines `name`, and the name it exports it under.
async function exported(name) {
  for (const file of fs.readdirSync(dist).filter((f) => f.endsWith(".mjs") || f.endsWith(".js"))) {
    const text = fs.readFileSync(path.join(dist, file), "utf8");
    if (!text.includes(`function ${name}(`)) continue;
    const exports = text.match(/export \{([^}]*)\};?\s*$/);
    if (!exports) continue;
    for (const part of exports[1].split(",")) {
      const [local, as] = part.trim().split(/\s+as\s+/);
      if (local === name) {
        const module = await import(pathToFileURL(path.join(dist, file)).href);
        return module[as ?? local];
      }
    }
  }
  throw new Error(`${name} not found in ${dist}`);
}

const evaluate = await exported("evaluateShellAllowlistWithAuthorization");
const enforced = await exported("buildAuthorizedShellCommandFromPlan");
const detectInlineEval = await exported("detectInlineEvalInSegments");
const describeInlineEval = await exported("describeInterpreterInlineEval");
const persistence = await exported("resolveAllowAlwaysPersistenceDecision");
const runtimePolicy = await exported("resolveExecSafeBinRuntimePolicy");
const { cases } = JSON.parse(
  fs.readFileSync(new URL("./cases.json", import.meta.url), "utf8"),
);
const env = { PATH: "/usr/bin:/bin" };
const answers = [];
for (const c of cases) {
  const policy = runtimePolicy({ local: { safeBins: c.safeBins } });
  const r = await evaluate({
    command: c.command,
    allowlist: c.allowlist.map((p) => (typeof p === "string" ? { pattern: p } : p)),
    safeBins: policy.safeBins,
    safeBinProfiles: policy.safeBinProfiles,
    trustedSafeBinDirs: policy.trustedSafeBinDirs,
    cwd: "/tmp",
    env,
    platform: "linux",
  });
  const plan = r.authorizationPlan;
  // What the gateway does next with a hit (and what "allow always" could store): its
  // enforced rewrite, the strict inline-eval check, the persistence decision.
  const rewrite = r.analysisOk && plan
    ? enforced({ plan, mode: "enforced", segmentSatisfiedBy: r.segmentSatisfiedBy })
    : null;
  const inline = detectInlineEval(r.segments ?? []);
  const strict = c.strictInlineEval === true;
  const kept = persistence({
    segments: r.segments ?? [],
    cwd: "/tmp",
    env,
    platform: "linux",
    commandText: c.command,
    strictInlineEval: strict,
    authorizationPlan: plan,
    runtimePayload: strict && inline !== null,
  });
  answers.push({
    command: c.command,
    allowlist: c.allowlist,
    ...(c.safeBins ? { safeBins: c.safeBins } : {}),
    analysisOk: r.analysisOk,
    reason: plan && !plan.ok ? plan.reason : null,
    satisfied: r.allowlistSatisfied,
    satisfiedBy: r.segmentSatisfiedBy ?? [],
    argv: (r.segments ?? []).map((s) => s.argv),
    ...(strict ? { strictInlineEval: true } : {}),
    rewrite: rewrite ? (rewrite.ok ? { ok: true } : { ok: false, reason: rewrite.reason }) : null,
    inlineEval: inline ? describeInlineEval(inline) : null,
    allowAlways: kept.kind === "patterns"
      // How many: the paths themselves are this machine's (where git or npm is installed).
      ? { kind: "patterns", patterns: kept.patterns.length }
      : { kind: kept.kind, reasons: kept.reasons },
  });
}
fs.writeFileSync(
  outFile,
  JSON.stringify({ openclaw: version, recordedBy: "tests/recordings/exec_allowlist/record.mjs", answers }, null, 1) + "\n",
);
console.log(`${answers.length} cases recorded from openclaw ${version} into ${outFile}`);
