import t from "tap";
import C5 from "../../checks/C5.ts";
import { HANDSHAKE } from "../../src/protocol/probes.ts";
import { runCases } from "../helpers/cases.ts";
import { ACK, tx } from "../helpers/transcript.ts";

const flow = (dataFlow: Record<string, unknown>) => () =>
  tx()
    .probe(HANDSHAKE.name)
    .handshake({ ...ACK, provider: { ...ACK.provider, data_flow: { reads: true, writes: false, ...dataFlow } } });

runCases(C5, [
  { name: "no egress_scopes", build: flow({ egress: false }), status: "skip", says: [/declares no egress_scopes/] },
  { name: "an empty egress_scopes", build: flow({ egress: false, egress_scopes: [] }), status: "skip" },
  {
    name: "egress false, local-only",
    build: flow({ egress: false, egress_scopes: ["local-only"] }),
    status: "pass",
    codes: ["C5.consistent"],
    says: [/egress false with egress_scopes \["local-only"\] is consistent/],
  },
  {
    name: "egress true, off-machine scopes",
    build: flow({ egress: true, egress_scopes: ["org-tenant", "acme:vault"] }),
    status: "pass",
    codes: ["C5.consistent"],
    says: [/egress true with egress_scopes \["org-tenant","acme:vault"\]/],
  },
  {
    name: "egress false beside a base off-machine scope",
    build: flow({ egress: false, egress_scopes: ["org-tenant"] }),
    status: "fail",
    codes: ["C5.contradiction"],
    says: [
      /data_flow declares egress: false beside off-machine scope "org-tenant" \| egress: true, or only local-only scopes \| egress: false, egress_scopes \["org-tenant"\]/,
    ],
  },
  {
    name: "egress false beside an unrecognised custom scope (treated as off-machine)",
    build: flow({ egress: false, egress_scopes: ["local-only", "acme:vault"] }),
    status: "fail",
    codes: ["C5.contradiction"],
    says: [/beside off-machine scope "acme:vault" \|/],
  },
  {
    name: "egress false beside several off-machine scopes",
    build: flow({ egress: false, egress_scopes: ["third-party-index", "local-only", "third-party-model"] }),
    status: "fail",
    codes: ["C5.contradiction"],
    says: [/beside off-machine scopes "third-party-index", "third-party-model"/],
  },
]);

t.test("a contradiction's params: the off-machine scopes apart from what was declared", async (t) => {
  const r = flow({ egress: false, egress_scopes: ["local-only", "acme:vault"] })().scoreWith(C5);
  t.match(r.evidence[0], { code: "C5.contradiction", params: { off_machine: ["acme:vault"], scopes: ["local-only", "acme:vault"] } });
});
