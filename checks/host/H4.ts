import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { findings, type Param } from "../kit/findings.ts";
import { show } from "../kit/show.ts";
import { capabilities } from "../../src/protocol/caps.ts";
import { CORRELATION, SCENARIOS } from "../../src/protocol/host-scenarios.ts";

/** Every scenario but correlation: none of them declares capabilities.correlation (read back from each ack all the same). */
const LOCK_STEP_SCENARIOS = SCENARIOS.filter((s) => s !== CORRELATION);

/** An envelope the host sent with an id: its type and the id, as sent. */
type WithId = { scenario: string; line: number; type: Param; id: Param };

const F = findings({
  "id-before-ack": {
    cites: "A host MUST NOT send an idto a provider that did not declarecapabilities.correlation",
    reading:
      "before the handshake_ack no provider has declared correlation or its absence, and the sentence does not say whether it binds an envelope sent before the declaration could be read",
    level: "NONE",
    apart: ["type"],
    says: (p: WithId & { ack: number | null }) =>
      `scenario ${p.scenario}, line ${p.line}: the host's ${show(p.type)} carries id ${show(p.id, 60)}, sent before ${p.ack !== null ? `the handshake_ack (line ${p.ack})` : "any handshake_ack"} declared whether correlation is offered; send no id until an ack declares capabilities.correlation`,
    expected: () => "no id member",
    actual: (p: WithId) => `id ${show(p.id, 60)}`,
  },
  "id-without-correlation": {
    apart: ["type"],
    says: (p: WithId & { ack: number }) =>
      `scenario ${p.scenario}, line ${p.line}: the host sent ${show(p.type)} with id ${show(p.id, 60)} to a provider whose handshake_ack (line ${p.ack}) does not declare capabilities.correlation; query it in lock-step, without ids`,
    expected: () => "no id member",
    actual: (p: WithId) => `id ${show(p.id, 60)}`,
  },
  // Each scenario's pass is shown on its own: a scenario of several providers shows each judged.
  "ids-welcome": {
    ok: true,
    apart: ["scenario"],
    says: (p: { scenario: string; ack: number; ids: number; lines: number[] }) =>
      `scenario ${p.scenario}: its provider declares capabilities.correlation (line ${p.ack}), so the ${count(p.ids, "id")} the host sent after it are welcome (${lineWords(p.lines)})`,
  },
  "no-id": {
    ok: true,
    apart: ["scenario"],
    says: (p: { scenario: string; lines: number[] }) =>
      `scenario ${p.scenario}: no envelope the host sent carries an id (${count(p.lines.length, "envelope")}: ${lineWords(p.lines)})`,
  },
});

/**
 * @anchor H4
 * Stimulus: every envelope the host sent in scenarios lock-step,
 * foreign-embeddings, representations-subset, verify-declared, egress,
 * egress-scopes, egress-scopes-consented, wrong-family, unknown-members, unknown-vocabulary,
 * error-internal, error-unknown-code, error-no-code, bearer-token, crash-mid-query,
 * stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered, compose-rescored,
 * three-providers, compose-one, compose-one-reordered,
 * compose-one-rescored, budget-breaker-one, reuse-without-verify, reuse, score-ranges, quoted-benign, quoted-hostile, budget-breaker and
 * unverifiable-attestation, reference-unresolvable, incompatible-version, unknown-envelope-type, whose scenario providers declare no
 * capabilities.correlation (each ack is read, not assumed). Scenario
 * correlation, where ids are welcome, is not read at all.
 * Findings: an envelope carrying an id, sent after an ack that did not
 * declare correlation, fails, one finding per envelope.
 * Readings: an envelope sent before any ack (the handshake itself, or a
 * request pipelined ahead of the ack) warns: before the ack the host cannot
 * know whether correlation is declared, but an id it sends then still reaches
 * a provider that did not declare it, and a lock-step host has no use for one.
 * An id member whose value is null is no id (a serializer writing an absent
 * optional as null).
 */
export default defineHostCheck({
  findings: F.table,
  anchor: "H4",
  title: "The host sends no id to a provider without correlation",
  level: "MUST",
  requirement:
    "A host MUST NOT send an id to a provider that did not declare capabilities.correlation; such a provider is queried in lock-step and is fully conformant.",
  scenarios: LOCK_STEP_SCENARIOS,
  score(input) {
    const out: Evidence[] = [];
    for (const v of ranViews(input, LOCK_STEP_SCENARIOS)) {
      const ack = v.ack();
      const declared = capabilities(ack?.env).correlation === true;
      const sent = v.sent();
      let ids = 0;
      let welcome = 0;
      for (const { n, env } of sent) {
        if (env.id === undefined || env.id === null) continue;
        const before = ack === undefined || n < ack.n;
        if (!before && declared) {
          welcome++;
          continue;
        }
        ids++;
        const at: WithId = { scenario: v.name, line: n, type: env.type as Param, id: env.id as Param };
        out.push(
          before
            ? F.say("id-before-ack", { ...at, ack: ack ? ack.n : null }, { lines: [n] })
            : F.say("id-without-correlation", { ...at, ack: ack!.n }, { lines: [n, ack!.n] }),
        );
      }
      if (ids === 0 && sent.length > 0) {
        const lines = sent.map((e) => e.n);
        out.push(
          welcome > 0
            ? F.say("ids-welcome", { scenario: v.name, ack: ack!.n, ids: welcome, lines }, { lines })
            : F.say("no-id", { scenario: v.name, lines }, { lines }),
        );
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no envelope in a scenario without correlation" };
  },
});
