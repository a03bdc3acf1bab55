"""Drives `clawdeck mcp` with the official MCP Python SDK (PyPI `mcp`) and prints what it saw.

Usage: python_client.py '<json plan>'. The plan names the transport (`stdio`: command, args,
env, cwd; `http`: url, token), optionally the name the client announces (`client_name`), and
the scenario: by default the full one (the file to read, a tool the policy hides, the pid file
for the cancelled exec, the config edit to make: path, text); with `"scenario": "calls"` only
the list and the plan's `calls` (each: key, tool, arguments, meta). The Rust test
(tests/mcp_clients.rs) asserts on the JSON report printed to stdout; nothing here decides pass
or fail.
"""

import json
import os
import sys
import time

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

try:
    from mcp.client.subscriptions import listen
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS
except ImportError:  # an SDK before 2026-07-28
    listen = None
    MODERN_PROTOCOL_VERSIONS = ()


def dump(model):
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


async def scenario(session, plan, changed, report):
    report["initialize"] = dump(await session.initialize())
    report["protocol"] = str(getattr(session, "protocol_version", ""))
    listed = await session.list_tools()
    report["tools"] = [dump(t) for t in listed.tools]

    progress = []

    async def on_progress(value, total, message):
        progress.append(message)

    report["read"] = dump(await session.call_tool("read", {"path": plan["read_path"]}))
    # Output spread over a second: exec reports its tail as progress while it runs.
    report["exec"] = dump(
        await session.call_tool(
            "exec",
            {"command": "for i in 1 2 3 4; do echo tick-$i; sleep 0.3; done; echo via-mcp-$((6*7))"},
            progress_callback=on_progress,
        )
    )
    report["exec_progress"] = progress
    report["router"] = dump(
        await session.call_tool("clawbot_router", {"message": "hello from mcp"})
    )
    report["hidden"] = dump(await session.call_tool(plan["hidden_tool"], {}))
    report["invalid"] = dump(await session.call_tool("read", {"path": 5}))

    # Cancelling a call: the SDK sends notifications/cancelled (stdio) or drops the POST
    # (HTTP) when the awaiting task is cancelled.
    pidfile = plan["pidfile"]
    started = time.monotonic()
    async with anyio.create_task_group() as group:

        async def long_exec():
            await session.call_tool(
                "exec",
                {"command": f"sleep 300 & echo $! > {pidfile}; wait", "yieldMs": 600000},
            )

        group.start_soon(long_exec)
        with anyio.fail_after(20):
            while not (os.path.exists(pidfile) and open(pidfile).read().strip()):
                await anyio.sleep(0.05)
        group.cancel_scope.cancel()
    report["cancel_seconds"] = time.monotonic() - started
    report["cancelled_pid"] = int(open(pidfile).read().strip())

    # A config edit: the server reloads and says the tool list changed.
    edit = plan.get("edit")
    if edit:
        await subscribe_and_edit(session, edit, changed, report)
        listed = await session.list_tools()
        report["tools_after_edit"] = [t.name for t in listed.tools]


async def calls_scenario(session, plan, report):
    """The list, then each planned call as the plan gives it (`_meta` included)."""
    report["initialize"] = dump(await session.initialize())
    listed = await session.list_tools()
    report["tools"] = [t.name for t in listed.tools]
    report["calls"] = {}
    for call in plan["calls"]:
        result = await session.call_tool(
            call["tool"], call.get("arguments", {}), meta=call.get("meta")
        )
        report["calls"][call["key"]] = dump(result)


async def subscribe_and_edit(session, edit, changed, report):
    modern = listen is not None and session.protocol_version in MODERN_PROTOCOL_VERSIONS
    report["list_changed_via"] = "subscriptions/listen" if modern else "notification"
    if modern:
        async with listen(session, tools_list_changed=True) as subscription:
            write_atomically(edit["path"], edit["text"])
            with anyio.fail_after(15):
                async for event in subscription:
                    report["list_changed"] = type(event).__name__
                    break
    else:
        write_atomically(edit["path"], edit["text"])
        with anyio.fail_after(15):
            await changed.wait()
        report["list_changed"] = "ToolListChangedNotification"


def write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


async def main(plan):
    report = {}
    changed = anyio.Event()

    async def on_message(message):
        if isinstance(message, types.ServerNotification):
            root = getattr(message, "root", message)
            if isinstance(root, types.ToolListChangedNotification):
                changed.set()

    client_info = None
    if plan.get("client_name"):
        client_info = types.Implementation(name=plan["client_name"], version="1.0.0")

    async def run(s):
        if plan.get("scenario") == "calls":
            await calls_scenario(s, plan, report)
        else:
            await scenario(s, plan, changed, report)

    def session(streams):
        return ClientSession(
            streams[0], streams[1], message_handler=on_message, client_info=client_info
        )

    if plan["transport"] == "stdio":
        params = StdioServerParameters(
            command=plan["command"], args=plan["args"], env=plan["env"], cwd=plan.get("cwd")
        )
        async with stdio_client(params) as streams:
            async with session(streams) as s:
                await run(s)
    else:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {plan['token']}"})
        async with http:
            async with streamable_http_client(plan["url"], http_client=http) as streams:
                async with session(streams) as s:
                    await run(s)
    print(json.dumps(report))


if __name__ == "__main__":
    anyio.run(main, json.loads(sys.argv[1]))
