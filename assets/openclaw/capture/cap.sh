#!/usr/bin/env bash
# cap.sh NAME 'TOOLS_JSON5' [AGENTS_JSON5] -> /tmp/truth/out/NAME.jsonl
set -u
NAME=$1; TOOLS=$2; AGENTS=${3:-'list: [ { id: "main", default: true }, { id: "ops" } ]'}
H=/tmp/truth/homes/$NAME; rm -rf $H; mkdir -p $H/.openclaw /tmp/truth/out
cat > $H/.openclaw/openclaw.json <<CFG
{
  models: { mode: "replace", providers: { mock: {
    baseUrl: "http://127.0.0.1:18180/v1", apiKey: "mock-key", api: "openai-completions",
    models: [{ id: "mock-1", name: "Mock 1", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096 }] } } },
  agents: { defaults: { model: { primary: "mock/mock-1" } }, $AGENTS },
  tools: $TOOLS,
}
CFG
: > /tmp/truth/run/mock.log
REALCLAW_HOME=$H timeout 120 /tmp/truth/bin/openclaw agent --local --agent ${AGENT:-main} ${EXTRA:---session-id x} --message hi > /tmp/truth/out/$NAME.stdout 2> /tmp/truth/out/$NAME.stderr
echo "rc=$?" >> /tmp/truth/out/$NAME.stdout
cp /tmp/truth/run/mock.log /tmp/truth/out/$NAME.jsonl
