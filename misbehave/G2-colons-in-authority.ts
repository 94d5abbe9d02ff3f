import { defineMode } from "./mode.ts";
import { type Obj } from "../src/protocol/envelope.ts";

/**
 * Breaks G2: "target_uri MUST be a non-empty URI". A symbol's path written
 * after "//" (symbol://src::sleep::sleep) puts it where RFC 3986 reads an
 * authority: its host ends at the first colon, and what follows must be a
 * port of digits. Lenient URI patterns read it as an empty authority and a path.
 */
export default defineMode({
  name: "G2-colons-in-authority",
  defect: "names relation targets symbol://<module>::<item> (symbol://src::sleep::sleep), an authority whose port is not digits",
  expectFail: ["G2"],
  finding: { code: "G2.not-a-uri", params: { part: "port" } },
  apply: (honest) => ({
    frame(doc) {
      const f = honest.frame.call(this, doc);
      const symbol = (target: string): string => {
        const [path, item] = target.split("#");
        return `symbol://${path!.replace(/\.ts$/, "").replace(/\//g, "::")}::${item}`;
      };
      return { ...f, relations: (doc.relations ?? []).map((r, i) => ({ ...(f.relations as Obj[])[i], target_uri: symbol(r.target) })) };
    },
  }),
});
