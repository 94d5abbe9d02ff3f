import { isProfileTimestamp } from "../math/timestamp.ts";
import { BASE_KINDS, declaredKinds } from "../protocol/caps.ts";
import { defineProbe, query } from "./probe.ts";
import { framesIn, type Obj } from "../protocol/envelope.ts";
import { atDepth, kindAnchoredStep, kindAsOfStep, kindPairStep, kindStep, KINDS_QUERY } from "../protocol/probes.ts";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * Q1: "When kinds is non-empty, a provider MUST NOT return a frame whose kind
 * is outside it." The filter is probed where providers forget it: every kind
 * alone, served kinds in pairs, a kind next to an anchor that reaches a frame
 * of another kind (the anchored frame is still subject to kinds), a kind with
 * as_of, and a base kind the provider does not declare. Every case is drawn
 * from the discovery query's frames.
 */
export default defineProbe({
  ...KINDS_QUERY,
  async run(s, ctx) {
    s.send(KINDS_QUERY.steps.discover, query(ctx, "kinds-0", {}), { rules: ["Q1"], why: "discovery: which kinds the provider serves" });
    const served = framesIn(await s.reply());
    const declared = declaredKinds(ctx.ack);
    const servedKinds = [...new Set(served.map((f) => str(f.kind)).filter((k): k is string => k !== undefined))];
    // An empty string names no kind: a query for it would test nothing (and makes no step name).
    // Served but undeclared kinds first: where the bound cuts, the kinds most likely to show a filter bug are kept.
    const kinds = [...new Set([...servedKinds.filter((k) => !declared.includes(k)), ...declared])].filter((k) => k !== "");
    let n = 0;
    const ask = async (step: string, fields: Obj, why: string): Promise<boolean> => {
      const id = `kinds-${++n}`;
      s.send(step, query(ctx, id, fields), { rules: ["Q1"], why });
      return (await s.reply()) !== undefined;
    };
    // Every kind alone, however many there are at quick and standard depth up to a bound: a provider may declare thousands.
    for (const k of atDepth(ctx.depth, kinds, { quick: 16, standard: 16 })) {
      const why = declared.includes(k) ? "a declared kind, alone" : "a kind served but not declared, alone";
      if (!(await ask(kindStep(k), { kinds: [k] }, why)) && s.stalled) return;
    }
    const pairs = servedKinds.flatMap((a, i) => servedKinds.slice(i + 1).map((b) => [a, b]));
    for (const [i, pair] of atDepth(ctx.depth, pairs, { quick: 0, standard: 3 }).entries()) {
      if (!(await ask(kindPairStep(i + 1), { kinds: pair }, `two served kinds together: ${pair.join(" and ")}`)) && s.stalled) return;
    }
    // An anchor on a frame of kind a, with kinds [b]: the frame it reaches is still not eligible.
    const crossed = served.flatMap((f) => {
      const uri = str(f.uri);
      const other = kinds.find((k) => k !== f.kind);
      return uri && other ? [{ uri, kind: other, of: String(f.kind) }] : [];
    });
    for (const [i, c] of atDepth(ctx.depth, crossed, { quick: 1, standard: 2 }).entries()) {
      const why = `kinds ["${c.kind}"] anchored on the uri of a "${c.of}" frame: the anchor must not bypass the filter`;
      if (!(await ask(kindAnchoredStep(i + 1), { kinds: [c.kind], anchors: [c.uri] }, why)) && s.stalled) return;
    }
    const windowed = served.filter((f) => isProfileTimestamp(f.valid_from) || isProfileTimestamp(f.valid_to));
    for (const [i, f] of atDepth(ctx.depth, windowed, { quick: 0, standard: 1 }).entries()) {
      const at = (isProfileTimestamp(f.valid_from) ? f.valid_from : f.valid_to) as string;
      const other = kinds.find((k) => k !== f.kind) ?? String(f.kind);
      if (
        !(await ask(kindAsOfStep(i + 1), { kinds: [other], as_of: at }, `kinds ["${other}"] pinned with as_of ${at}, a served frame's window edge`)) &&
        s.stalled
      )
        return;
    }
    const unserved = BASE_KINDS.find((k) => !kinds.includes(k));
    if (unserved) await ask(KINDS_QUERY.steps.unserved, { kinds: [unserved] }, "a base kind the provider neither declares nor serves");
  },
});
