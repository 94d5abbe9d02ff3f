import C6 from "../../../checks/host/C6.ts";
import { ackFlow, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const scopes = (s: string[], egress = false) => ackFlow({ reads: true, writes: false, egress, egress_scopes: s });
const OFF = scopes(["third-party-model", "cgp-conform:mirror"]);
/** egress-scopes-consented's ack: the same scopes, consistently beside egress: true. */
const CONSISTENT = scopes(["third-party-model", "cgp-conform:mirror"], true);
const REFUSAL = "ConsentRequired: no receipt for scopes third-party-model, cgp-conform:mirror";

/** lock-step as an honest host runs it: it queried (line 4), so the baseline shows a host that queries where nothing forbids it. */
const queried = () => hostTx().scenario("lock-step").honest();
/** lock-step, then egress-scopes refused with the scopes named (lines 8 to 12). */
const refusedBoth = () => queried().scenario("egress-scopes").handshake(OFF).print("stderr", REFUSAL).send(SHUTDOWN).end({ code: 1 });

runHostCases(C6, [
  {
    name: "refused with an error naming a scope",
    build: () =>
      queried()
        .scenario("egress-scopes")
        .handshake(OFF)
        .print("stderr", "ConsentRequired: no receipt for scope third-party-model")
        .send(SHUTDOWN)
        .end({ code: 1 }),
    status: "pass",
    says: [
      /sent no query to a provider declaring unreceipted off-machine scopes "third-party-model", "cgp-conform:mirror" beside egress: false \(handshake_ack line 9; no consent receipt exists; it exited with status 1\), though it queried an honest provider in lock-step \(line 4\)/,
      /the host's stderr names the scopes at line 10/,
    ],
  },
  {
    name: "refused silently: the typed error could not be seen",
    build: () => queried().scenario("egress-scopes").handshake(OFF).send(SHUTDOWN).end({ code: 1 }),
    status: "warn",
    codes: ["host:C6.scopes-unnamed"],
    strict: "warn",
    says: [/nothing the host printed \(0 lines\) names any of the scopes .*could not be seen in its output/],
    lines: [9],
  },
  {
    name: "the payload transmitted",
    build: () =>
      queried()
        .scenario("egress-scopes")
        .handshake(OFF)
        .send(query({ goal: "what leaves" }))
        .end(),
    status: "fail",
    codes: ["host:C6.query-unreceipted"],
    says: [
      /scenario egress-scopes, line 10: the host transmitted a query payload \(goal "what leaves"\) to a provider whose handshake_ack \(line 9\) declares off-machine scopes "third-party-model", "cgp-conform:mirror" beside egress: false, and no consent receipt exists: refuse the query/,
    ],
    lines: [10],
  },
  {
    name: "the payload transmitted fails even where lock-step saw no query",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(SHUTDOWN)
        .end()
        .scenario("egress-scopes")
        .handshake(OFF)
        .send(query({ goal: "what leaves" }))
        .end(),
    status: "fail",
    codes: ["host:C6.query-unreceipted"],
    says: [/scenario egress-scopes, line 8: the host transmitted a query payload \(goal "what leaves"\)/],
    lines: [8],
  },
  {
    name: "an unknown custom scope is off-machine",
    build: () =>
      queried()
        .scenario("egress-scopes")
        .handshake(scopes(["acme:vault"]))
        .send(query())
        .end(),
    status: "fail",
    codes: ["host:C6.query-unreceipted"],
    says: [/off-machine scopes "acme:vault"/],
    lines: [10],
  },
  {
    name: "no query in lock-step either: sending none here shows nothing",
    build: () => hostTx().scenario("lock-step").handshake().end().scenario("egress-scopes").handshake(OFF).end({ code: 1 }),
    status: "skip",
    says: [
      /scenario lock-step: the host sent no query to an honest provider either \(it exited with status 0\), so its sending none to a provider declaring unreceipted scopes shows nothing about consent/,
    ],
  },
  {
    name: "no baseline",
    build: () => hostTx().scenario("egress-scopes").handshake(OFF).send(SHUTDOWN).end({ code: 1 }),
    status: "skip",
    says: [/lock-step did not run/],
  },
  {
    name: "neither scope scenario ran",
    build: () => queried(),
    status: "skip",
    says: [/scenario egress-scopes did not run/, /scenario egress-scopes-consented did not run/],
  },
  {
    name: "consented: refused with an error naming the scopes",
    build: () => refusedBoth().scenario("egress-scopes-consented").handshake(CONSISTENT).print("stderr", REFUSAL).send(SHUTDOWN).end({ code: 1 }),
    status: "pass",
    says: [
      /scenario egress-scopes-consented: the host sent no query to a provider declaring unreceipted off-machine scopes "third-party-model", "cgp-conform:mirror" beside egress: true \(handshake_ack line 14; the host was told it holds a boolean consent for it \(CGP_CONSENT=egress\) and no receipt for any scope; it exited with status 1\)/,
      /scenario egress-scopes-consented: the host's stderr names the scopes at line 15/,
      /scenario egress-scopes: the host's stderr names the scopes at line 10/,
    ],
  },
  {
    name: "consented: the boolean consent taken for a receipt, the payload transmitted",
    build: () =>
      refusedBoth()
        .scenario("egress-scopes-consented")
        .handshake(CONSISTENT)
        .send(query({ goal: "to the model" }))
        .end(),
    status: "fail",
    codes: ["host:C6.query-unreceipted"],
    says: [
      /scenario egress-scopes-consented, line 15: the host transmitted a query payload \(goal "to the model"\) to a provider whose handshake_ack \(line 14\) declares off-machine scopes "third-party-model", "cgp-conform:mirror" beside egress: true, and the host was told it holds a boolean consent for it \(CGP_CONSENT=egress\) and no receipt for any scope: a boolean consent satisfies no scope gate; refuse the query/,
      /scenario egress-scopes: the host sent no query/,
    ],
    lines: [15, 14],
  },
  {
    name: "a host that rejects the C5 contradiction at the handshake, and queries the consistent provider, fails",
    build: () =>
      queried()
        .scenario("egress-scopes")
        .handshake(OFF)
        .print("stderr", "error: egress_scopes declared beside egress: false (C5)")
        .send(SHUTDOWN)
        .end({ code: 1 })
        .scenario("egress-scopes-consented")
        .handshake(CONSISTENT)
        .send(query())
        .end(),
    status: "fail",
    codes: ["host:C6.query-unreceipted"],
    says: [
      /scenario egress-scopes: the host's stderr names the scopes at line 10/,
      /scenario egress-scopes-consented, line 15: the host transmitted a query payload/,
    ],
    lines: [15],
  },
  {
    name: "a host with no gate at all fails in both",
    build: () =>
      queried().scenario("egress-scopes").handshake(OFF).send(query()).end().scenario("egress-scopes-consented").handshake(CONSISTENT).send(query()).end(),
    status: "fail",
    codes: ["host:C6.query-unreceipted"],
    says: [/scenario egress-scopes, line 10: the host transmitted/, /scenario egress-scopes-consented, line 14: the host transmitted/],
    lines: [10, 14],
  },
  {
    name: "consented: refused naming no scope warns, saying a boolean gate shows no scope gate",
    build: () =>
      refusedBoth()
        .scenario("egress-scopes-consented")
        .handshake(CONSISTENT)
        .print("stderr", "error: egress provider without consent (C2)")
        .send(SHUTDOWN)
        .end({ code: 1 }),
    status: "warn",
    codes: ["host:C6.scopes-unnamed"],
    says: [
      /scenario egress-scopes-consented: nothing the host printed \(1 line\) names any of the scopes .*could not be seen in its output \(it may be surfaced elsewhere\); and a host that did not take the boolean consent it was given \(CGP_CONSENT, \{consent\}\) refused by its boolean gate, which shows no scope gate/,
    ],
    lines: [14],
  },
  {
    name: "consented: naming egress_scopes or C5 is not naming the scopes, since its provider is consistent",
    build: () =>
      refusedBoth()
        .scenario("egress-scopes-consented")
        .handshake(CONSISTENT)
        .print("stderr", "error: egress_scopes refused (C5)")
        .send(SHUTDOWN)
        .end({ code: 1 }),
    status: "warn",
    codes: ["host:C6.scopes-unnamed"],
    says: [/scenario egress-scopes-consented: nothing the host printed \(1 line\) names any of the scopes/],
    never: [/scenario egress-scopes-consented: the host's stderr names/],
  },
  {
    name: "only egress-scopes-consented ran (a transcript without egress-scopes)",
    build: () => queried().scenario("egress-scopes-consented").handshake(CONSISTENT).print("stdout", REFUSAL).end({ code: 1 }),
    status: "pass",
    says: [/scenario egress-scopes-consented: the host's stdout names the scopes at line 10/],
    never: [/scenario egress-scopes:/],
  },
  {
    name: "local-only is not off-machine",
    build: () =>
      hostTx()
        .scenario("egress-scopes")
        .honest(scopes(["local-only"])),
    status: "skip",
    says: [/declares no off-machine egress scope/],
  },
]);
