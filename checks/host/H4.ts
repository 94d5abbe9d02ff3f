import type { Evidence } from "../kit/check.ts";
import { defineHostCheck, ranViews } from "../kit/host.ts";
import { count, lineWords } from "../kit/host-evidence.ts";
import { show } from "../kit/show.ts";
import { capabilities } from "../../src/protocol/caps.ts";
import { CORRELATION, SCENARIOS } from "../../src/protocol/host-scenarios.ts";

/** Every scenario but correlation: none of them declares capabilities.correlation (read back from each ack all the same). */
const LOCK_STEP_SCENARIOS = SCENARIOS.filter((s) => s !== CORRELATION);

/**
 * @anchor H4
 * Stimulus: every envelope the host sent in scenarios lock-step,
 * foreign-embeddings, representations-subset, verify-declared, egress,
 * egress-scopes, egress-scopes-consented, wrong-family, unknown-members, unknown-vocabulary,
 * error-internal, error-unknown-code, error-no-code, bearer-token, crash-mid-query,
 * stops-answering, non-loopback-plaintext, non-loopback-tls, compose, compose-reordered, compose-rescored,
 * three-providers, reuse, score-ranges, quoted-benign, quoted-hostile, budget-breaker and
 * unverifiable-attestation, whose scenario providers declare no
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
        out.push(
          before
            ? {
                ok: false,
                level: "NONE",
                message: `scenario ${v.name}, line ${n}: the host's ${show(env.type)} carries id ${show(env.id, 60)}, sent before ${ack ? `the handshake_ack (line ${ack.n})` : "any handshake_ack"} declared whether correlation is offered; send no id until an ack declares capabilities.correlation`,
                expected: "no id member",
                actual: `id ${show(env.id, 60)}`,
                lines: [n],
              }
            : {
                ok: false,
                message: `scenario ${v.name}, line ${n}: the host sent ${show(env.type)} with id ${show(env.id, 60)} to a provider whose handshake_ack (line ${ack!.n}) does not declare capabilities.correlation; query it in lock-step, without ids`,
                expected: "no id member",
                actual: `id ${show(env.id, 60)}`,
                lines: [n, ack!.n],
              },
        );
      }
      if (ids === 0 && sent.length > 0) {
        const lines = sent.map((e) => e.n);
        out.push({
          ok: true,
          message:
            welcome > 0
              ? `scenario ${v.name}: its provider declares capabilities.correlation (line ${ack!.n}), so the ${count(welcome, "id")} the host sent after it are welcome (${lineWords(lines)})`
              : `scenario ${v.name}: no envelope the host sent carries an id (${count(sent.length, "envelope")}: ${lineWords(lines)})`,
          lines,
        });
      }
    }
    return out.length > 0 ? out : { skip: "the host sent no envelope in a scenario without correlation" };
  },
});
