import t from "tap";
import { family, isVersionString, sameFamily } from "../../src/math/version.ts";

t.equal(family("contextgraph/1.0"), "contextgraph/1");
t.equal(family("contextgraph/1.12-draft"), "contextgraph/1");
t.equal(family("contextgraph/10.0"), "contextgraph/10");
t.ok(sameFamily("contextgraph/1.0", "contextgraph/1.1"), "1.0 and 1.1 interoperate");
t.ok(sameFamily("contextgraph/1.0-draft", "contextgraph/1.0"), "-draft is the same family");
t.notOk(sameFamily("contextgraph/1.0", "contextgraph/2.0"), "2.0 does not");
t.notOk(sameFamily("contextgraph/1.0", "contextgraph/10.0"), "10 is not 1 (no prefix match)");
for (const bad of ["contextgraph/1", "contextgraph/1.0-beta", "ContextGraph/1.0", "contextgraph/1.0 ", "contextgraph/.0", 1]) {
  t.notOk(isVersionString(bad), `rejects ${JSON.stringify(bad)}`);
  t.equal(family(bad), undefined);
}
