#!/usr/bin/env python3
"""channel_forms.py: the forms of the tools that grow with a configured channel.

A configured channel's form of each tool (message's actions and fields) is read from the
channel_<id> run (an `agent --local` turn with that channel configured), and its form in a turn
over one of its chats from the scheduled_<id> run (a scheduled job announcing to it; Telegram's
is the scheduled_widget run). build_pack.py puts them in the pack's channelVariants; capture.sh's
channels part (CAPTURE_PART=channels) writes only them, for the channel plugins it installs:

    channel_forms.py --work WORK --channels discord,slack --out FORMS.json

FORMS.json has the channels and, under "forms", each tool's variants for them in the order the
pack keeps them.
"""
import argparse, json, os

# Telegram is in the package; the others are channel plugins capture.sh installs from npm (the
# release's own version, else the newest of its series before it).
PLUGIN_CHANNELS = ["discord", "slack", "whatsapp", "signal", "matrix", "msteams", "imessage",
                   "feishu", "nextcloud-talk", "zalouser", "mattermost", "line"]
CHANNELS = ["telegram"] + PLUGIN_CHANNELS
# The tools a turn over a channel's chat scopes to that channel.
TURN_SCOPED = ("message", "sessions_spawn")


def recorded_request(work, name):
    """The model request run NAME recorded, else None."""
    path = os.path.join(work, "runs", f"{name}.jsonl")
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    text = open(path).readline()
    # The isolated home of the run is not part of what a release sends.
    home = os.path.join(os.path.abspath(work), "homes", name)
    return json.loads(text.replace(home, "$OPENCLAW_HOME"))["request"]


def form(f):
    return {"description": f["description"], "parameters": f["parameters"]}


def sent_tools(request):
    return {t["function"]["name"]: t["function"] for t in (request or {}).get("tools", [])}


def turn_run(channel):
    return "scheduled_widget" if channel == "telegram" else f"scheduled_{channel}"


def configured_forms(work, channel, full_tools):
    """{tool: variant}: the tools whose form channel_<channel> changes, in that form."""
    return {name: dict(whenChannel=channel, **form(f))
            for name, f in sent_tools(recorded_request(work, f"channel_{channel}")).items()
            if name in full_tools and form(f) != form(full_tools[name])}


def turn_forms(work, channel, full_tools, configured):
    """{tool: variant}: message's and sessions_spawn's forms in a turn over a chat of the
    channel, where they differ from its configured form."""
    out = {}
    for name, sent in sent_tools(recorded_request(work, turn_run(channel))).items():
        if name not in TURN_SCOPED or name not in full_tools:
            continue
        known = form(configured[name]) if name in configured else form(full_tools[name])
        if form(sent) != known:
            out[name] = dict(whenChannel=channel, whenTurnChannel=channel, **form(sent))
    return out


def kept_forms(base, channel):
    """The base pack's configured and turn forms of a channel this capture did not record."""
    configured, turn = {}, {}
    for name, variants in base.get("channelVariants", {}).items():
        for v in variants:
            whens = {k for k in v if k.startswith("when")}
            if v.get("whenChannel") != channel:
                continue
            if whens == {"whenChannel"}:
                configured[name] = v
            elif whens == {"whenChannel", "whenTurnChannel"} and v["whenTurnChannel"] == channel:
                turn[name] = v
    return configured, turn


def channel_forms(work, full_tools, channels, base=None, kept=()):
    """(configured, turn): {tool: [variant]} for each, channels in order; a channel in `kept`
    takes its forms from `base`. The pack lists a tool's turn forms (last channel first) before
    its configured ones."""
    configured_all, turn_all = {}, {}
    for channel in channels:
        if channel in kept:
            configured, turn = kept_forms(base, channel)
        else:
            configured = configured_forms(work, channel, full_tools)
            turn = turn_forms(work, channel, full_tools, configured)
        for name, v in configured.items():
            configured_all.setdefault(name, []).append(v)
        for name, v in turn.items():
            turn_all.setdefault(name, []).insert(0, v)
    return configured_all, turn_all


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--channels", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    full = recorded_request(a.work, "full_nots")
    if full is None:
        raise SystemExit(f"{a.work}/runs/full_nots.jsonl: no run recorded")
    full_tools = sent_tools(full)
    channels = [c for c in a.channels.split(",") if c]
    for channel in channels:
        for run in (f"channel_{channel}", turn_run(channel)):
            if recorded_request(a.work, run) is None:
                raise SystemExit(f"{a.work}/runs/{run}.jsonl: no run recorded")
    configured, turn = channel_forms(a.work, full_tools, channels)
    forms = {name: turn.get(name, []) + configured.get(name, [])
             for name in sorted(set(configured) | set(turn))}
    json.dump({"channels": channels, "forms": forms}, open(a.out, "w"), indent=1, ensure_ascii=False)
    open(a.out, "a").write("\n")
    print(f"{a.out}: the forms of {len(forms)} tools for {', '.join(channels)}")
