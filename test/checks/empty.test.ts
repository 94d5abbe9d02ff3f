/**
 * Every check, scored on transcripts that hold nothing to judge, must still
 * give a verdict a reader can act on: never a throw, and never a silent pass.
 */
import t from "tap";
import { CHECKS } from "../../checks/index.ts";
import { score } from "../../src/engine/score.ts";
import { PROBE_SPECS } from "../../src/protocol/probes.ts";
import type { CheckResult } from "../../src/verdict/status.ts";
import { ACK, tx, type TranscriptBuilder } from "../helpers/transcript.ts";

/** Only what the envelope schema requires of a handshake_ack: no optional capability, so nothing further is promised. */
const MINIMAL_ACK = { type: "handshake_ack", protocol_version: ACK.protocol_version, provider: ACK.provider, capabilities: { query: { kinds: [] } } };

/** Every probe, each in a session of its own, sent its handshake, got `ack`, and recorded nothing more. */
const handshakesOnly = (ack: object) => (): TranscriptBuilder => {
  const b = tx();
  for (const p of PROBE_SPECS) b.probe(p.name).handshake(ack);
  return b;
};

interface Empty {
  name: string;
  build: () => TranscriptBuilder;
  /** Nothing ran at all: every check must be untestable. */
  nothingRan: boolean;
}

const EMPTY: Empty[] = [
  { name: "a transcript with no events", build: () => tx(), nothingRan: true },
  { name: "every probe only completed a handshake, with a minimal ack", build: handshakesOnly(MINIMAL_ACK), nothingRan: false },
  {
    name: "every probe only completed a handshake, with an ack declaring correlation",
    build: handshakesOnly(ACK),
    nothingRan: false,
  },
];

for (const e of EMPTY) {
  t.test(e.name, async (t) => {
    const transcript = e.build().build();
    for (const check of CHECKS) {
      t.test(check.id, async (t) => {
        let r: CheckResult;
        try {
          r = score(transcript, [check])[0]!;
        } catch (err) {
          t.fail(`scoring ${check.id} threw: ${(err as Error).message}`);
          return;
        }
        t.pass("scoring does not throw");
        if (e.nothingRan) {
          t.equal(r.status, "unobserved", "nothing ran: the verdict is not observed");
          t.equal(r.untestable, true, "nothing ran: the verdict is marked untestable");
        }
        if (r.status === "skip") {
          t.ok(typeof r.reason === "string" && r.reason.length > 0, `skip says why: ${r.reason}`);
          return;
        }
        t.ok(r.evidence.length > 0, `a ${r.status} carries evidence`);
        // Never a pass: what could not be seen is not observed, unless a rule was also seen broken.
        if (r.untestable) t.ok(r.status === "unobserved" || r.status === "fail", `untestable is not observed (or a fail): ${r.status}`);
      });
    }
  });
}
