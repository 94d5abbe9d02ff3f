import { defineCheck, type Evidence } from "./kit/check.ts";
import { capabilities } from "../src/protocol/caps.ts";
import { identityName, NO_IDENTITY, unservedIdentities, verdictFor, verifyExchanges, type VerifyStep } from "./kit/verify.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/**
 * What each step may not be answered, among the four statuses (a status
 * outside them is V3's): the served must be valid, a changed digest never
 * valid, and a frame that never existed neither valid nor stale.
 */
const HONEST: Record<VerifyStep, { wrong: string[]; want: string; what: string }> = {
  [VERIFY.steps.verifyServed]: { wrong: ["stale", "gone", "unknown"], want: "valid", what: "identities it served moments ago, unchanged" },
  [VERIFY.steps.verifyMutated]: {
    wrong: ["valid"],
    want: "stale, gone or unknown",
    what: "identities whose digest differs by one hex digit from what it served",
  },
  [VERIFY.steps.verifyNeverServed]: { wrong: ["valid", "stale"], want: "gone or unknown", what: "an identity it never served" },
  // Frame ids are opaque strings compared exactly: a case-flipped id names no frame served.
  [VERIFY.steps.verifyCase]: { wrong: ["valid", "stale"], want: "gone or unknown", what: "identities whose frame id differs from a served one only in case" },
  // A digest-less identity cannot be revalidated (V1's host SHOULD): any status is honest, but one verdict each is owed.
  [VERIFY.steps.verifyDigestless]: { wrong: [], want: "any status", what: "served identities without a content_digest" },
};

/**
 * @anchor V2
 * Stimulus: probe verify. Witnessed, per the spec's table, by rubber-stamp
 * (valid for anything) and hollow (missing verdicts) providers; a provider
 * answering unknown to everything serves no verify at all.
 */
export default defineCheck({
  id: "V2",
  title: "Provider answers verify honestly, one verdict per identity",
  level: "MUST",
  requirement:
    "A provider declaring capabilities.verify MUST answer a verify with a verified reply. A requested identity that comes back with no verdict MUST be treated by the host as unknown.",
  probes: [VERIFY],
  score({ probe }) {
    const p = probe(VERIFY);
    if (capabilities(p.ack()?.env).verify !== true) return { skip: "capabilities.verify is not declared: a host re-queries instead" };
    const xs = verifyExchanges(p);
    if (xs.length === 0) return unservedIdentities(p) ?? { skip: NO_IDENTITY };
    const out: Evidence[] = [];
    for (const x of xs) {
      // A request of digest-less identities breaks V1's host SHOULD: what a provider owes it is at most a SHOULD.
      const owed = x.step === VERIFY.steps.verifyDigestless ? { level: "SHOULD" as const } : {};
      if (x.reply?.env.type !== "verified") {
        const s = p.silence(x.step);
        out.push({
          ok: false,
          ...owed,
          message: `verify of ${HONEST[x.step].what} (line ${x.sent.n}) got no verified reply`,
          expected: "a verified envelope",
          actual: x.reply ? `error ${show(x.reply.env.code)}` : s.why,
          lines: [x.sent.n, ...(x.reply ? [x.reply.n] : s.lines)],
        });
        continue;
      }
      const lines = [x.sent.n, x.reply.n];
      const missing = x.identities.filter((id) => !verdictFor(id, x.verdicts));
      if (missing.length > 0) {
        out.push({
          ok: false,
          ...owed,
          message: `${missing.length} of ${x.identities.length} identities got no verdict echoing them in full: ${missing.slice(0, 3).map(identityName).join(", ")}`,
          expected: "one verdict per identity, echoing provider_id, frame_id and content_digest",
          actual: `${x.verdicts.length} verdicts`,
          lines,
        });
      }
      const honest = HONEST[x.step];
      const lies = x.identities.map((id) => [id, verdictFor(id, x.verdicts)] as const).filter(([, v]) => v && honest.wrong.includes(v.status as string));
      out.push(
        lies.length === 0
          ? {
              ok: true,
              message: `verify of ${honest.what}: ${honest.wrong.length > 0 ? `no verdict is ${honest.wrong.join(" or ")}` : "a verified reply"}`,
              lines,
            }
          : {
              ok: false,
              message: `verify of ${honest.what} answered ${lies
                .slice(0, 3)
                .map(([id, v]) => `${show(v!.status)} for ${identityName(id)}`)
                .join("; ")}`,
              expected: honest.want,
              actual: [...new Set(lies.map(([, v]) => show(v!.status)))].join(", "),
              lines,
            },
      );
    }
    return out;
  },
});
