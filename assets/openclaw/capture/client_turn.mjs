// client_turn.mjs DIST PORT TOKEN CLIENT_ID MODE CAPS_CSV [OPTIONS_CSV]: one `chat.send` turn
// ("hi", session agent:main:main) on the gateway at ws://127.0.0.1:PORT, connected as client
// CLIENT_ID in MODE with the operator scopes and the capabilities CAPS_CSV (comma-separated, may
// be empty). OPTIONS_CSV: `browser` connects as a browser client of the gateway's own host (its
// loopback origin and a development build id, without which the gateway refuses the Control
// UI); `guest` leaves out operator.admin (the turn's operator is not the owner).
// Only a turn a gateway client starts with chat.send carries that client's declared caps (the
// tools that need one are built, or kept, only then); `agent --local` and the gateway's `agent`
// method carry none. The client is the release's own GatewayClient (from dist/: module names
// carry build hashes, so it is found by its `var GatewayClient = class`). Prints chat.send's
// answer; exits 1 on a connect or request error, or after 60 s without an answer.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { randomUUID } from "node:crypto";

const [dist, port, token, clientName, mode, capsCsv = "", optionsCsv = ""] = process.argv.slice(2);
const options = optionsCsv.split(",").map((o) => o.trim()).filter(Boolean);
const unknown = options.filter((o) => o !== "browser" && o !== "guest");
if (unknown.length) { console.error(`client_turn: unknown options ${unknown.join(", ")}`); process.exit(2); }
if (!dist || !port || !token || !clientName || !mode) {
  console.error("usage: client_turn.mjs DIST PORT TOKEN CLIENT_ID MODE CAPS_CSV [browser,guest]");
  process.exit(2);
}
const file = readdirSync(dist).filter((f) => /^client-[^.]*\.m?js$/.test(f)).sort()
  .find((f) => /^var GatewayClient = class\b/m.test(readFileSync(join(dist, f), "utf8")));
if (!file) { console.error(`client_turn: no module of ${dist} defines GatewayClient`); process.exit(1); }
const mod = await import(pathToFileURL(join(dist, file)).href);
const GatewayClient = Object.values(mod).find((v) => typeof v === "function" && v.name === "GatewayClient");
if (!GatewayClient) { console.error(`client_turn: ${file} does not export GatewayClient`); process.exit(1); }

const fail = (why) => { console.error(`client_turn: ${why}`); process.exit(1); };
const timer = setTimeout(() => fail(`no answer to chat.send from ws://127.0.0.1:${port} in 60 s`), 60_000);
const client = new GatewayClient({
  url: `ws://127.0.0.1:${port}`, token, clientName, mode, clientVersion: "capture",
  scopes: [...(options.includes("guest") ? [] : ["operator.admin"]), "operator.read", "operator.write", "operator.approvals"],
  caps: capsCsv.split(",").map((c) => c.trim()).filter(Boolean),
  ...(options.includes("browser") ? { origin: `http://127.0.0.1:${port}`, clientBuildId: "dev" } : {}),
  onHelloOk: async () => {
    try {
      const res = await client.request("chat.send", { sessionKey: "agent:main:main", message: "hi", idempotencyKey: randomUUID() });
      console.log(JSON.stringify(res));
    } catch (e) {
      fail(`chat.send: ${e?.message ?? e}`);
    }
    clearTimeout(timer);
    client.stop();
    setTimeout(() => process.exit(0), 100);
  },
  onConnectError: (e) => fail(`connect: ${e?.message ?? e}`),
});
client.start();
