import C2 from "../../../checks/host/C2.ts";
import { ACK, ackFlow, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const EGRESS = ackFlow({ reads: true, writes: false, egress: true });

/** lock-step as an honest host runs it: it queried (line 4), so the baseline shows a host that queries where nothing forbids it. */
const queried = () => hostTx().scenario("lock-step").honest();

runHostCases(C2, [
  {
    name: "refused: no query to the egress provider",
    build: () => queried().scenario("egress").handshake(EGRESS).print("stderr", "provider requires consent: egress").send(SHUTDOWN).end({ code: 1 }),
    status: "pass",
    says: [
      /scenario egress: the host sent no query to the egress provider \(handshake_ack line 9; it ended: exited with status 1\), though it queried an honest provider in lock-step \(line 4\)/,
    ],
  },
  {
    name: "a query payload transmitted without consent",
    build: () =>
      queried()
        .scenario("egress")
        .handshake(EGRESS)
        .send(query({ goal: "summarise the secret plan" }))
        .end(),
    status: "fail",
    codes: ["host:C2.query-before-consent"],
    says: [
      /scenario egress, line 10: the host transmitted a query payload \(goal "summarise the secret plan"\) to a provider whose handshake_ack \(line 9\) declares data_flow.egress: true/,
    ],
    lines: [10],
  },
  {
    name: "a query to the egress provider fails even where lock-step saw no query",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(SHUTDOWN)
        .end()
        .scenario("egress")
        .handshake(EGRESS)
        .send(query({ goal: "summarise the secret plan" }))
        .end(),
    status: "fail",
    codes: ["host:C2.query-before-consent"],
    says: [/scenario egress, line 8: the host transmitted a query payload/],
    lines: [8],
  },
  {
    name: "a verify is no query payload",
    build: () =>
      queried()
        .scenario("egress")
        .handshake(EGRESS)
        .send({ type: "verify", request: { frames: [{ provider_id: "p", frame_id: "f" }] } })
        .end(),
    status: "pass",
  },
  {
    name: "no query in lock-step either: sending none to the egress provider shows nothing",
    build: () => hostTx().scenario("lock-step").handshake().end().scenario("egress").handshake(EGRESS).end(),
    status: "skip",
    says: [
      /scenario lock-step: the host sent no query to an honest provider either \(it exited with status 0\), so its sending none to the egress provider shows nothing about consent/,
    ],
  },
  {
    name: "no baseline",
    build: () => hostTx().scenario("egress").handshake(EGRESS).send(SHUTDOWN).end({ code: 1 }),
    status: "skip",
    says: [/lock-step did not run/],
  },
  {
    name: "egress did not run",
    build: () => queried(),
    status: "skip",
    says: [/scenario egress did not run/],
  },
  {
    name: "the ack declares no egress",
    build: () => hostTx().scenario("egress").honest(ACK),
    status: "skip",
    says: [/does not declare data_flow.egress: true \(false\)/],
  },
  {
    name: "no ack at all",
    build: () => hostTx().scenario("egress").send(query()).end(),
    status: "skip",
  },
]);
