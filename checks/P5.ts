import { defineCheck, type Evidence } from "./kit/check.ts";
import { capabilities, REPRESENTATIONS } from "../src/protocol/caps.ts";
import { HANDSHAKE, REPRESENTATIONS_QUERY, UNADVERTISED_REPRESENTATION, preferStep } from "../src/protocol/probes.ts";
import { framesIn } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { unansweredAlive } from "./kit/stimulus.ts";

const rep = (f: Record<string, unknown>): unknown => f.representation ?? "full";

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
 * are outcomes no keyword states: they warn. A frame whose own fields break
 * P1–P3 fails those checks, not this one.
 */
export default defineCheck({
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
          ? { ok: true, message: `advertises ${needsResolve.join(", ")} with resolve: true`, lines: [ack.n] }
          : {
              ok: false,
              message: `advertises ${needsResolve.join(", ")} without resolve: true (§6.4: compact/reference ⇒ resolve)`,
              expected: "resolve: true",
              actual: `resolve: ${show(caps.resolve)}`,
              lines: [ack.n],
            },
      );
    }
    const p = probe(REPRESENTATIONS_QUERY);
    for (const r of REPRESENTATIONS.filter((x) => advertised.includes(x))) {
      const sent = p.sent(preferStep(r))[0];
      const reply = p.answer(preferStep(r), ["frames", "error"]);
      if (!sent || !reply) continue;
      const lines = [sent.n, reply.n];
      if (reply.env.type === "error") {
        out.push({
          ok: false,
          // No keyword binds a provider to honour a preference it advertises.
          level: "NONE",
          message: `a query preferring the advertised representation ${r} was refused with error ${show(reply.env.code)}`,
          expected: "frames",
          actual: `error ${show(reply.env.code)}`,
          lines,
        });
        continue;
      }
      const foreign = framesIn(reply.env).filter((f) => !advertised.includes(rep(f) as string));
      out.push(
        foreign.length === 0
          ? { ok: true, message: `preferring ${r}: every frame is in an advertised representation`, lines }
          : {
              ok: false,
              // Nothing with a keyword confines what a provider serves to what it advertises; a frame breaking P1–P3 fails those.
              level: "NONE",
              message: `preferring ${r}, the provider served ${foreign.map((f) => `${show(f.id)} as ${show(rep(f))}`).join(", ")}, which it does not advertise`,
              expected: `one of ${advertised.join(", ")}`,
              actual: foreign.map((f) => show(rep(f))).join(", "),
              lines,
            },
      );
    }
    const u = probe(UNADVERTISED_REPRESENTATION);
    const sent = u.sent(UNADVERTISED_REPRESENTATION.steps.unadvertised)[0];
    if (sent) {
      const wanted = (sent.env.query as { representation_preferences: string[] }).representation_preferences[0];
      const reply = u.answer(UNADVERTISED_REPRESENTATION.steps.unadvertised, ["frames", "error"]);
      if (!reply) {
        const s = u.silence(UNADVERTISED_REPRESENTATION.steps.unadvertised);
        out.push({
          ok: false,
          // Silence while the provider lives falls short of the SHOULD; dying on it is a crash on a request it cannot serve: R1's finding, and not observed here.
          ...(unansweredAlive(u, UNADVERTISED_REPRESENTATION.steps.unadvertised) ? { level: "SHOULD" as const } : { untestable: true }),
          message: `a query preferring the unadvertised ${wanted} (line ${sent.n}) got no answer: ${s.why}`,
          expected: "error unsupported_representation, or full frames",
          actual: s.why,
          lines: [sent.n, ...s.lines],
        });
      } else {
        const lines = [sent.n, reply.n];
        const fine = reply.env.type === "error" ? reply.env.code === "unsupported_representation" : framesIn(reply.env).every((f) => rep(f) === "full");
        out.push(
          fine
            ? {
                ok: true,
                message: `preferring the unadvertised ${wanted}: ${reply.env.type === "error" ? "error unsupported_representation" : "fell back to full"}`,
                lines,
              }
            : {
                ok: false,
                level: "SHOULD",
                message: `preferring the unadvertised ${wanted}, the provider neither replied unsupported_representation nor fell back to full`,
                expected: "error unsupported_representation, or full frames",
                actual: reply.env.type === "error" ? `error ${show(reply.env.code)}` : `frames in ${show([...new Set(framesIn(reply.env).map(rep))])}`,
                lines,
              },
        );
      }
    }
    return out.length > 0 ? out : { skip: "nothing to negotiate: no representation query was answered" };
  },
});
