/**
 * Defect: reaches a non-loopback provider over plain http:// for the handshake, and refuses only the query payload.
 * Breaks C7's first clause: "A host's HTTP transport MUST use TLS for every non-loopback provider", a MUST of its own
 * beside "MUST refuse to transmit a query payload to a non-loopback provider over an unencrypted connection", which
 * it keeps.
 */
import { defineHostMode } from "./mode.ts";
import type { RefHost } from "../../src/reference/host.ts";

/** The hosts (one per run) that let a plain http:// URL off loopback through, to refuse the query after the handshake. */
const plainRemote = new WeakSet<RefHost>();

export default defineHostMode({
  name: "C7-plaintext-handshake",
  defect:
    "lets a plain http:// URL to a non-loopback provider through its transport and handshakes there, refusing only the query payload (insecure_transport) once the ack is in",
  expectFail: ["host:C7"],
  // The handshake crossed (a shutdown may follow it, as the process path sends one): no query payload did.
  finding: "host:C7.plaintext-requests",
  only: "http",
  apply: (honest) => ({
    transportRefusal(url) {
      const refused = honest.transportRefusal.call(this, url);
      if (refused?.code !== "insecure_transport") return refused;
      plainRemote.add(this);
      return undefined;
    },
    refusal(ack) {
      if (plainRemote.has(this))
        return {
          code: "insecure_transport",
          message: "the provider is reached over plain http:// off loopback: no query payload is sent over an unencrypted connection (C7)",
        };
      return honest.refusal.call(this, ack);
    },
  }),
});
