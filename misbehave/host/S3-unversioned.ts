/**
 * Defect: names its protocol version without the minor: contextgraph/1.
 * Breaks §3.1: version-string = "contextgraph/" major "." minor [ "-draft" ].
 */
import { defineHostMode } from "./mode.ts";

export default defineHostMode({
  name: "S3-unversioned",
  defect: 'opens with handshake protocol_version "contextgraph/1", which the version grammar does not allow',
  expectFail: ["host:S3-version"],
  finding: { code: "host:S3-version.off-grammar", params: { version: "contextgraph/1" } },
  apply: () => ({
    handshake: () => ({ type: "handshake", protocol_version: "contextgraph/1" }),
  }),
});
