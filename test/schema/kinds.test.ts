import t from "tap";
import { BARE, BRANCHES, envelopeSchemas } from "../../src/schema/documents.ts";
import { BARE_KINDS, ENVELOPE, ENVELOPE_KINDS, KINDS } from "../../src/schema/kinds.ts";

t.test("the envelope kinds are the schema's envelope types", async (t) => {
  t.same([...ENVELOPE_KINDS], [...BRANCHES.keys()]);
});

t.test("every bare kind names an object definition of the schema, under a name of its own", async (t) => {
  t.equal(BARE.size, BARE_KINDS.size);
  for (const [kind, def] of BARE) {
    t.equal((envelopeSchemas.lint.$defs[def] as { type?: unknown }).type, "object", `${kind}: ${def} is an object`);
    t.notOk((ENVELOPE_KINDS as readonly string[]).includes(kind), `${kind} is no envelope type`);
  }
  t.equal(new Set(KINDS).size, KINDS.length, "no name twice");
  t.equal(KINDS[0], ENVELOPE);
});
