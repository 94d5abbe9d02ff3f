import { defineCheck, type Evidence } from "./kit/check.ts";
import { capabilities, REPRESENTATIONS } from "../src/protocol/caps.ts";
import { HANDSHAKE, REPRESENTATIONS_QUERY, UNADVERTISED_REPRESENTATION, preferStep } from "../src/protocol/probes.ts";
import { framesIn } from "../src/protocol/envelope.ts";
import { findings, type Param } from "./kit/findings.ts";
import { show } from "./kit/show.ts";
import { unansweredAlive } from "./kit/stimulus.ts";

const rep = (f: Record<string, unknown>): Param => (f.representation ?? "full") as Param;

type Foreign = { representation: string; frames: { id: Param; representation: Param }[]; advertised: string[] };
type Silent = { wanted: string; line: number; why: string };
const silent = (p: Silent): string => `a query preferring the unadvertised ${p.wanted} (line ${p.line}) got no answer: ${p.why}`;
/** What answered the unadvertised preference instead: an error code, or the representations its frames came in. */
type Mishandled = { wanted: string; error?: Param; representations?: Param[] };

const F = findings({
  "resolve-declared": { ok: true, says: (p: { representations: string[] }) => `advertises ${p.representations.join(", ")} with resolve: true` },
  "no-resolve": {
    says: (p: { representations: string[]; resolve?: Param }) =>
      `advertises ${p.representations.join(", ")} without resolve: true (§6.4: compact/reference ⇒ resolve)`,
    expected: () => "resolve: true",
    actual: (p: { resolve?: Param }) => `resolve: ${show(p.resolve)}`,
  },
  "advertised-refused": {
    cites: "a provider asked for an unadvertised representation SHOULD reply error with code unsupported_representation, or fall back to full",
    reading: "the SHOULD binds an unadvertised representation; refusing an advertised one is an outcome no keyword states",
    apart: ["error"],
    // No keyword binds a provider to honour a preference it advertises.
    level: "NONE",
    says: (p: { representation: string; error: Param }) =>
      `a query preferring the advertised representation ${p.representation} was refused with error ${show(p.error)}`,
    expected: () => "frames",
    actual: (p: { error: Param }) => `error ${show(p.error)}`,
  },
  "advertised-unavailable": {
    level: "MAY",
    cites: "transient overload, backing store down",
    reading:
      "an unavailable reply says the provider is overloaded or its store is down, which no sentence forbids and a run cannot tell from the truth: it informs",
    says: (p: { representation: string }) =>
      `a query preferring the advertised representation ${p.representation} was answered error unavailable (transient overload): not judged`,
  },
  "advertised-served": { ok: true, says: (p: { representation: string }) => `preferring ${p.representation}: every frame is in an advertised representation` },
  "foreign-served": {
    cites: "a provider asked for an unadvertised representation SHOULD reply error with code unsupported_representation, or fall back to full",
    reading: "the SHOULD binds an unadvertised representation; serving one never advertised, when asked for an advertised one, is an outcome no keyword states",
    // Nothing with a keyword confines what a provider serves to what it advertises; a frame breaking P1–P3 fails those.
    level: "NONE",
    says: (p: Foreign) =>
      `preferring ${p.representation}, the provider served ${p.frames.map((f) => `${show(f.id)} as ${show(f.representation)}`).join(", ")}, which it does not advertise`,
    expected: (p: Foreign) => `one of ${p.advertised.join(", ")}`,
    actual: (p: Foreign) => p.frames.map((f) => show(f.representation)).join(", "),
  },
  /** Silence while the provider lives falls short of the SHOULD. */
  "unadvertised-silent": {
    cites: "a provider asked for an unadvertised representation SHOULD reply error with code unsupported_representation, or fall back to full",
    level: "SHOULD",
    says: silent,
    expected: () => "error unsupported_representation, or full frames",
    actual: (p: Silent) => p.why,
  },
  /** Dying on it is a crash on a request it cannot serve: R1's finding, and not observed here. */
  "unadvertised-unobserved": {
    untestable: true,
    says: silent,
    expected: () => "error unsupported_representation, or full frames",
    actual: (p: Silent) => p.why,
  },
  "unadvertised-handled": {
    ok: true,
    says: (p: { wanted: string; refused: boolean }) =>
      `preferring the unadvertised ${p.wanted}: ${p.refused ? "error unsupported_representation" : "fell back to full"}`,
  },
  "unadvertised-mishandled": {
    cites: "a provider asked for an unadvertised representation SHOULD reply error with code unsupported_representation, or fall back to full",
    level: "SHOULD",
    says: (p: Mishandled) => `preferring the unadvertised ${p.wanted}, the provider neither replied unsupported_representation nor fell back to full`,
    expected: () => "error unsupported_representation, or full frames",
    actual: (p: Mishandled) => (p.representations === undefined ? `error ${show(p.error)}` : `frames in ${show(p.representations)}`),
  },
});

/**
 * @anchor P5
 * Stimulus: the ack's representations and resolve (probe handshake); a query
 * preferring each advertised representation (probe representations); one
 * preferring a representation not advertised (probe unadvertised-representation).
 * Also held here, from §6.4: "A provider advertising compact or reference
 * MUST set resolve: true".
 * Readings: the provider's half of P5 is a SHOULD with an allowed
 * alternative ("SHOULD reply error with code unsupported_representation, or
 * fall back to full"): falling back to full passes; another error code,
 * frames in the unadvertised representation, or no answer while the provider
 * lives, warn; dying on it fails (R1). Refusing an advertised preference, and
 * serving a representation never advertised when asked for an advertised one,
 * are outcomes no keyword states: they warn; but full is never foreign ("Absent
 * means full", "or fall back to full"), so full frames for any preference
 * never warn, and a refusal with `unavailable` (the error table's transient
 * overload, which a run cannot tell from the truth) informs. A frame whose own
 * fields break P1–P3 fails those checks, not this one.
 */
export default defineCheck({
  findings: F.table,
  id: "P5",
  title: "Representation negotiation keeps to what is advertised",
  level: "MUST",
  requirement:
    "A host MUST NOT populate query.representation_preferences with a representation the provider did not advertise in capabilities.representations; a provider asked for an unadvertised representation SHOULD reply error with code unsupported_representation, or fall back to full.",
  probes: [HANDSHAKE, REPRESENTATIONS_QUERY, UNADVERTISED_REPRESENTATION],
  score({ probe }) {
    const ack = probe(HANDSHAKE).ack()!;
    const caps = capabilities(ack.env);
    const declared = caps.representations;
    const advertised = Array.isArray(declared) ? declared : ["full"];
    const out: Evidence[] = [];
    const needsResolve = advertised.filter((r) => r === "compact" || r === "reference");
    if (needsResolve.length > 0) {
      out.push(
        caps.resolve === true
          ? F.say("resolve-declared", { representations: needsResolve }, { lines: [ack.n] })
          : F.say("no-resolve", { representations: needsResolve, resolve: caps.resolve as Param }, { lines: [ack.n] }),
      );
    }
    const p = probe(REPRESENTATIONS_QUERY);
    for (const r of REPRESENTATIONS.filter((x) => advertised.includes(x))) {
      const sent = p.sent(preferStep(r))[0];
      const reply = p.answer(preferStep(r), ["frames", "error"]);
      if (!sent || !reply) continue;
      const lines = [sent.n, reply.n];
      if (reply.env.type === "error") {
        out.push(
          reply.env.code === "unavailable"
            ? F.say("advertised-unavailable", { representation: r }, { lines })
            : F.say("advertised-refused", { representation: r, error: reply.env.code as Param }, { lines }),
        );
        continue;
      }
      // Full is never foreign: "Absent means full", and a provider asked for what it cannot give may "fall back to full".
      const foreign = framesIn(reply.env).filter((f) => rep(f) !== "full" && !advertised.includes(rep(f) as string));
      out.push(
        foreign.length === 0
          ? F.say("advertised-served", { representation: r }, { lines })
          : F.say(
              "foreign-served",
              { representation: r, frames: foreign.map((f) => ({ id: f.id as Param, representation: rep(f) })), advertised: advertised as string[] },
              { lines },
            ),
      );
    }
    const u = probe(UNADVERTISED_REPRESENTATION);
    const sent = u.sent(UNADVERTISED_REPRESENTATION.steps.unadvertised)[0];
    if (sent) {
      const wanted = (sent.env.query as { representation_preferences: string[] }).representation_preferences[0];
      const reply = u.answer(UNADVERTISED_REPRESENTATION.steps.unadvertised, ["frames", "error"]);
      if (!reply) {
        const s = u.silence(UNADVERTISED_REPRESENTATION.steps.unadvertised);
        const alive = unansweredAlive(u, UNADVERTISED_REPRESENTATION.steps.unadvertised);
        out.push(
          F.say(alive ? "unadvertised-silent" : "unadvertised-unobserved", { wanted: wanted!, line: sent.n, why: s.why }, { lines: [sent.n, ...s.lines] }),
        );
      } else {
        const lines = [sent.n, reply.n];
        const fine = reply.env.type === "error" ? reply.env.code === "unsupported_representation" : framesIn(reply.env).every((f) => rep(f) === "full");
        out.push(
          fine
            ? F.say("unadvertised-handled", { wanted: wanted!, refused: reply.env.type === "error" }, { lines })
            : F.say(
                "unadvertised-mishandled",
                reply.env.type === "error"
                  ? { wanted: wanted!, error: reply.env.code as Param }
                  : { wanted: wanted!, representations: [...new Set(framesIn(reply.env).map(rep))] },
                { lines },
              ),
        );
      }
    }
    return out.length > 0 ? out : { skip: "nothing to negotiate: no representation query was answered" };
  },
});
