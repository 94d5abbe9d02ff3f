import { defineCheck } from "./kit/check.ts";
import { perVerdict } from "./kit/verify.ts";
import { isObj } from "../src/protocol/envelope.ts";
import { show } from "./kit/show.ts";
import { VERIFY } from "../src/protocol/probes.ts";

/** Members that would carry a frame body. */
const BODY = ["content", "frames", "frame_body", "body"];

/**
 * @anchor V1
 * Stimulus: probe verify (identities only, per V1's host rule). The
 * provider-observable half: "No frame body travels in either direction."
 */
export default defineCheck({
  id: "V1",
  title: "Verify carries identities only, never frame bodies",
  level: "MUST",
  requirement:
    "A verify request MUST carry frame identities only — no frame bodies. A host SHOULD include only identities carrying a content_digest; a digest-less frame cannot be revalidated and is re-queried instead.",
  probes: [VERIFY],
  score({ probe }) {
    const r = perVerdict(probe(VERIFY), (v, x) => {
      const carried = [
        ...BODY.filter((k) => v[k] !== undefined),
        ...(isObj(v.frame) ? BODY.filter((k) => (v.frame as Record<string, unknown>)[k] !== undefined).map((k) => `frame.${k}`) : []),
      ];
      return carried.length === 0
        ? { ok: true, message: "no verdict carries a frame body", lines: [x.reply!.n] }
        : {
            ok: false,
            message: `a verdict in reply to ${x.step} carries ${carried.join(", ")}: a body travelled`,
            expected: "frame identity, status, and at most a replacement_digest",
            actual: show(v, 160),
            lines: [x.reply!.n],
          };
    });
    return r;
  },
});
