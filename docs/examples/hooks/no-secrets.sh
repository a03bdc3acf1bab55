#!/bin/sh
# A before_tool_call hook: the event {event, toolName, toolCallId, params, context} arrives as
# JSON on stdin; an answer of {"block": true, "blockReason": ...} refuses the call, no answer
# lets it run.
if grep -q '"path": *"secrets' ; then
  echo '{"block": true, "blockReason": "no-secrets: files named secrets* are not written by agents"}'
fi
