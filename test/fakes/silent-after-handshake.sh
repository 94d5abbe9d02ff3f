#!/bin/sh
# Answers the handshake, then reads everything and never answers again: silent-after-handshake.mjs without a
# runtime to start, so a run against it costs the suite's own waits and nothing of the provider's start.
read -r _line
printf '%s\n' '{"type":"handshake_ack","protocol_version":"contextgraph/1.0","provider":{"name":"silent","version":"1","data_flow":{"reads":false,"writes":false,"egress":false}},"capabilities":{"query":{"kinds":[]}}}'
exec cat >/dev/null
