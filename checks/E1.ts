import { defineCheck, type Evidence } from "./kit/check.ts";
import { capabilities, fingerprintDims } from "../src/protocol/caps.ts";
import { stimulusOutcome, unansweredAlive } from "./kit/stimulus.ts";
import { show } from "./kit/show.ts";
import { EMBEDDING, EMBEDDING_MISMATCH, HANDSHAKE } from "../src/protocol/probes.ts";

/**
 * @anchor E1
 * Stimulus: the ack's embeddings_fingerprint (probe handshake); a query with
 * an embedding of the declared dimension (probe embedding); one three
 * dimensions too long (probe embedding-mismatch).
 * Readings: E1's MUST binds a host (host:E1 holds it); the provider's half
 * is a SHOULD ("SHOULD reply bad_request"), so this check's level is
 * SHOULD: the over-long vector answered with frames, with another code, or
 * left unanswered while the provider lives, warns; the provider dying on it
 * is R1's finding (a crash on a bad request), and leaves this stimulus not
 * observed here; one that answers it, then lives on but answers nothing
 * more, has wedged on a bad request, which fails here at R1's MUST (no other
 * check sees this stimulus). The fingerprint grammar is stated with no keyword, so a
 * fingerprint outside it warns (its schema pattern too), and so does a
 * refused vector of the declared dimension: no keyword binds a provider to
 * serve one.
 */
export default defineCheck({
  id: "E1",
  title: "Embedding fingerprint is well-formed and its dimension is enforced",
  level: "SHOULD",
  requirement:
    "A host MUST NOT populate query.embedding unless its own embedding fingerprint is exactly equal to the provider's declared capabilities.embeddings_fingerprint. A provider receiving a vector whose length contradicts its declared dimension SHOULD reply bad_request. " +
    "Fingerprint grammar: <model-id>/<dimensions>[/<normalization>].",
  probes: [HANDSHAKE, EMBEDDING, EMBEDDING_MISMATCH],
  score({ probe }) {
    const ack = probe(HANDSHAKE).ack()!;
    const fp = capabilities(ack.env).embeddings_fingerprint;
    if (fp === undefined || fp === null) return { skip: "capabilities.embeddings_fingerprint is not declared: no embedding is sent" };
    const dims = fingerprintDims(fp);
    if (dims === undefined) {
      return [
        {
          ok: false,
          level: "NONE",
          message: `embeddings_fingerprint ${show(fp)} does not follow <model-id>/<dimensions>[/<normalization>]`,
          expected: 'e.g. "bge-small-en-v1.5/384/l2"',
          actual: show(fp),
          lines: [ack.n],
        },
      ];
    }
    const out: Evidence[] = [{ ok: true, message: `embeddings_fingerprint ${show(fp)} declares ${dims} dimensions`, lines: [ack.n] }];
    const ok = probe(EMBEDDING);
    const sent = ok.sent(EMBEDDING.steps.ok)[0];
    if (sent) {
      const reply = ok.answer(EMBEDDING.steps.ok, ["frames", "error"]);
      if (!reply) {
        const s = ok.silence(EMBEDDING.steps.ok);
        out.push({
          ok: false,
          untestable: true,
          message: `the query with a ${dims}-dimension embedding (line ${sent.n}) got no answer: ${s.why}`,
          lines: [sent.n, ...s.lines],
        });
      } else {
        out.push(
          reply.env.type === "frames"
            ? { ok: true, message: `a ${dims}-dimension embedding was answered with frames`, lines: [sent.n, reply.n] }
            : {
                ok: false,
                // No keyword binds a provider to serve a vector of its own dimension.
                level: "NONE",
                message: `a query with an embedding of exactly the declared ${dims} dimensions was refused`,
                expected: "frames",
                actual: `error ${show(reply.env.code)}: ${show(reply.env.message)}`,
                lines: [sent.n, reply.n],
              },
        );
      }
    }
    const bad = probe(EMBEDDING_MISMATCH);
    const wrong = bad.sent(EMBEDDING_MISMATCH.steps.wrong)[0];
    if (wrong) {
      const reply = bad.answer(EMBEDDING_MISMATCH.steps.wrong, ["frames", "error"]);
      if (!reply) {
        const s = bad.silence(EMBEDDING_MISMATCH.steps.wrong);
        // Silence while the provider lives falls short of the SHOULD; dying on it is a crash on a bad request, R1's finding.
        const quiet = unansweredAlive(bad, EMBEDDING_MISMATCH.steps.wrong);
        out.push({
          ok: false,
          ...(quiet ? {} : { untestable: true }),
          message: `a query with an embedding of ${dims + 3} dimensions (line ${wrong.n}) got no answer: ${s.why}`,
          expected: "error bad_request, promptly",
          actual: s.why,
          lines: [wrong.n, ...s.lines],
        });
      } else {
        const lines = [wrong.n, reply.n];
        out.push(
          reply.env.type === "error" && reply.env.code === "bad_request"
            ? { ok: true, message: `an embedding of ${dims + 3} dimensions got error bad_request`, lines }
            : {
                ok: false,
                level: "SHOULD",
                message: `an embedding of ${dims + 3} dimensions against a ${dims}-dimension space was not refused with bad_request`,
                expected: "error bad_request",
                actual: reply.env.type === "error" ? `error ${show(reply.env.code)}` : "frames (scored anyway)",
                lines,
              },
        );
        // A provider that dies after answering it crashed on it: R1 holds that. One that lives but answers nothing more has
        // wedged on a bad request, which R1's MUST NOT forbids as it does a crash, and which only this check's stimulus shows.
        const o = stimulusOutcome(bad, EMBEDDING_MISMATCH.steps.wrong, EMBEDDING_MISMATCH.steps.after);
        if (o?.silence && unansweredAlive(bad, EMBEDDING_MISMATCH.steps.after))
          out.push({
            ok: false,
            level: "MUST",
            message: `after an embedding of ${dims + 3} dimensions, ${o.silence.why} (R1: a provider MUST NOT crash on a bad request, and one that stops answering has)`,
            expected: "the provider stays alive",
            actual: o.silence.why,
            lines: [wrong.n, o.silence.line],
          });
      }
    }
    return out;
  },
});
