import H4 from "../../../checks/host/H4.ts";
import { ackWith, handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

runHostCases(H4, [
  {
    name: "an honest lock-step host",
    build: () => hostTx().scenario("lock-step").honest().scenario("egress").honest(),
    status: "pass",
    says: [/scenario lock-step: no envelope the host sent carries an id \(3 envelopes: lines 2, 4, 6\)/, /scenario egress: no envelope/],
  },
  {
    name: "a query with an id to a provider without correlation",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query({}, { id: "q-1" }))
        .end(),
    status: "fail",
    codes: ["host:H4.id-without-correlation"],
    says: [
      /scenario lock-step, line 4: the host sent "query" with id "q-1" to a provider whose handshake_ack \(line 3\) does not declare capabilities.correlation/,
    ],
    lines: [4],
  },
  {
    name: "a handshake with an id: before the ack the host cannot know",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .send(handshake(undefined, { id: "h1" }))
        .ack()
        .send(SHUTDOWN)
        .end(),
    status: "warn",
    codes: ["host:H4.id-before-ack"],
    strict: "warn",
    says: [/line 2: the host's "handshake" carries id "h1", sent before the handshake_ack \(line 3\) declared whether correlation is offered/],
    lines: [2],
  },
  {
    name: "ids in the correlation scenario are not read",
    build: () =>
      hostTx()
        .scenario("correlation")
        .handshake(ackWith({ correlation: true }))
        .send(query({}, { id: "q-1" }))
        .end()
        .scenario("lock-step")
        .honest(),
    status: "pass",
    never: [/correlation:/, /q-1/],
  },
  {
    name: "an id member of null is no id",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query({}, { id: null }))
        .end(),
    status: "pass",
  },
  {
    name: "only the correlation scenario ran",
    build: () =>
      hostTx()
        .scenario("correlation")
        .handshake(ackWith({ correlation: true }))
        .send(query({}, { id: "q-1" }))
        .end(),
    status: "skip",
  },
]);
