import { defineCheck, site, type Evidence } from "./kit/check.ts";
import { capabilities, FINGERPRINT_GRAMMAR, fingerprintDims } from "../src/protocol/caps.ts";
import { stimulusOutcome, unansweredAlive } from "./kit/stimulus.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { EMBEDDING, EMBEDDING_MISMATCH, HANDSHAKE } from "../src/protocol/probes.ts";

/** The over-long vector: `sent` dimensions against the declared `dims`. */
type Mismatch = { dims: number; sent: number };
type Silent = { dims: number; line: number; why: string };

const F = findings({
  "bad-fingerprint": {
    basis: "the embedding fingerprint grammar",
    says: (p: { fingerprint: Param }) => `embeddings_fingerprint ${show(p.fingerprint)} does not follow <model-id>/<dimensions>[/<normalization>]`,
    expected: () => 'e.g. "bge-small-en-v1.5/384/l2"',
    actual: (p: { fingerprint: Param }) => show(p.fingerprint),
  },
  "no-dimensions": {
    level: "NONE",
    cites: "Fingerprint grammar: <model-id>/<dimensions>[/<normalization>]",
    says: (p: { fingerprint: Param }) => `embeddings_fingerprint ${show(p.fingerprint)} declares no dimensions (0): no vector can match it, so none is sent`,
    expected: () => 'e.g. "bge-small-en-v1.5/384/l2"',
    actual: (p: { fingerprint: Param }) => show(p.fingerprint),
  },
  fingerprint: { ok: true, says: (p: { fingerprint: Param; dims: number }) => `embeddings_fingerprint ${show(p.fingerprint)} declares ${p.dims} dimensions` },
  "no-answer": {
    untestable: true,
    says: (p: Silent) => `the query with a ${p.dims}-dimension embedding (line ${p.line}) got no answer: ${p.why}`,
  },
  served: { ok: true, says: (p: { dims: number }) => `a ${p.dims}-dimension embedding was answered with frames` },
  /** No keyword binds a provider to serve a vector of its own dimension. */
  refused: {
    cites: "A provider receiving a vector whose length contradicts its declared dimension SHOULD reply bad_request",
    reading: "that SHOULD binds a vector that contradicts the declared dimension; refusing one of the declared dimension is an outcome no keyword states",
    level: "NONE",
    says: (p: { dims: number; code: Param; message: Param }) => `a query with an embedding of exactly the declared ${p.dims} dimensions was refused`,
    expected: () => "frames",
    actual: (p: { code: Param; message: Param }) => `error ${show(p.code)}: ${show(p.message)}`,
  },
  "refused-unavailable": {
    level: "MAY",
    cites: "transient overload, backing store down",
    reading:
      "an unavailable reply says the provider is overloaded or its store is down, which no sentence forbids and a run cannot tell from the truth: it informs",
    says: (p: { dims: number }) =>
      `a query with an embedding of exactly the declared ${p.dims} dimensions was answered error unavailable (transient overload): not judged`,
  },
  /** Silence while the provider lives falls short of the SHOULD. */
  "mismatch-unanswered": {
    says: (p: Mismatch & Silent) => `a query with an embedding of ${p.sent} dimensions (line ${p.line}) got no answer: ${p.why}`,
    expected: () => "error bad_request, promptly",
    actual: (p: Silent) => p.why,
  },
  /** The same, the provider dead: a crash on a bad request, R1's finding; not observed here. */
  "mismatch-lost": {
    untestable: true,
    says: (p: Mismatch & Silent) => `a query with an embedding of ${p.sent} dimensions (line ${p.line}) got no answer: ${p.why}`,
    expected: () => "error bad_request, promptly",
    actual: (p: Silent) => p.why,
  },
  "mismatch-refused": { ok: true, says: (p: Mismatch) => `an embedding of ${p.sent} dimensions got error bad_request` },
  "mismatch-accepted": {
    level: "SHOULD",
    apart: ["type"],
    says: (p: Mismatch & { type: Param; code?: Param }) =>
      `an embedding of ${p.sent} dimensions against a ${p.dims}-dimension space was not refused with bad_request`,
    expected: () => "error bad_request",
    actual: (p: { type: Param; code?: Param }) => (p.type === "error" ? `error ${show(p.code)}` : "frames (scored anyway)"),
  },
  wedged: {
    cites: "A provider MUST NOT crash on a malformed line or bad request",
    level: "MUST",
    says: (p: Mismatch & { why: string }) =>
      `after an embedding of ${p.sent} dimensions, ${p.why} (R1: a provider MUST NOT crash on a bad request, and one that stops answering has)`,
    expected: () => "the provider stays alive",
    actual: (p: { why: string }) => p.why,
  },
});

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
 * check sees this stimulus). The fingerprint grammar is one of §1's normative
 * grammars: a fingerprint outside it is no value of the protocol, and fails,
 * labelled as the grammar (docs/readings.md, rule 2). A refused vector of the
 * declared dimension warns: no keyword binds a provider to serve one; refused
 * with `unavailable` (the error table's transient overload), it informs.
 */
export default defineCheck({
  findings: F.table,
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
    // In the grammar, but no vector has zero dimensions: nothing can be sent, and no keyword says so.
    if (dims === undefined && typeof fp === "string" && FINGERPRINT_GRAMMAR.test(fp)) return [F.say("no-dimensions", { fingerprint: fp }, { lines: [ack.n] })];
    if (dims === undefined) {
      // The schema's pattern spells the same grammar: the one finding is this one.
      return [F.say("bad-fingerprint", { fingerprint: fp as Param }, { lines: [ack.n], judges: [site(ack.n, "/capabilities/embeddings_fingerprint")] })];
    }
    const out: Evidence[] = [F.say("fingerprint", { fingerprint: fp as Param, dims }, { lines: [ack.n] })];
    const mismatch: Mismatch = { dims, sent: dims + 3 };
    const ok = probe(EMBEDDING);
    const sent = ok.sent(EMBEDDING.steps.ok)[0];
    if (sent) {
      const reply = ok.answer(EMBEDDING.steps.ok, ["frames", "error"]);
      if (!reply) {
        const s = ok.silence(EMBEDDING.steps.ok);
        out.push(F.say("no-answer", { dims, line: sent.n, why: s.why }, { lines: [sent.n, ...s.lines] }));
      } else {
        const at = { lines: [sent.n, reply.n] };
        out.push(
          reply.env.type === "frames"
            ? F.say("served", { dims }, at)
            : reply.env.code === "unavailable"
              ? F.say("refused-unavailable", { dims }, at)
              : F.say("refused", { dims, code: reply.env.code as Param, message: reply.env.message as Param }, at),
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
        out.push(F.say(quiet ? "mismatch-unanswered" : "mismatch-lost", { ...mismatch, line: wrong.n, why: s.why }, { lines: [wrong.n, ...s.lines] }));
      } else {
        const at = { lines: [wrong.n, reply.n] };
        out.push(
          reply.env.type === "error" && reply.env.code === "bad_request"
            ? F.say("mismatch-refused", mismatch, at)
            : F.say("mismatch-accepted", { ...mismatch, type: reply.env.type as Param, code: reply.env.code as Param }, at),
        );
        // A provider that dies after answering it crashed on it: R1 holds that. One that lives but answers nothing more has
        // wedged on a bad request, which R1's MUST NOT forbids as it does a crash, and which only this check's stimulus shows.
        const o = stimulusOutcome(bad, EMBEDDING_MISMATCH.steps.wrong, EMBEDDING_MISMATCH.steps.after);
        if (o?.silence && unansweredAlive(bad, EMBEDDING_MISMATCH.steps.after))
          out.push(F.say("wedged", { ...mismatch, why: o.silence.why }, { lines: [wrong.n, o.silence.line] }));
      }
    }
    return out;
  },
});
