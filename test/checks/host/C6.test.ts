import C6 from "../../../checks/host/C6.ts";
import { ackFlow, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const scopes = (s: string[]) => ackFlow({ reads: true, writes: false, egress: false, egress_scopes: s });
const OFF = scopes(["third-party-model", "cgp-conform:mirror"]);

/** lock-step as an honest host runs it: it queried (line 4), so the baseline shows a host that queries where nothing forbids it. */
const queried = () => hostTx().scenario("lock-step").honest();

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
      /sent no query to a provider declaring unreceipted off-machine scopes "third-party-model", "cgp-conform:mirror" \(handshake_ack line 9; it exited with status 1\), though it queried an honest provider in lock-step \(line 4\)/,
      /the host's stderr names the scopes at line 10/,
    ],
  },
  {
    name: "refused silently: the typed error could not be seen",
    build: () => queried().scenario("egress-scopes").handshake(OFF).send(SHUTDOWN).end({ code: 1 }),
    status: "warn",
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
    says: [/scenario egress-scopes, line 10: the host transmitted a query payload \(goal "what leaves"\)/],
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
    name: "egress-scopes did not run",
    build: () => queried(),
    status: "skip",
    says: [/scenario egress-scopes did not run/],
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
