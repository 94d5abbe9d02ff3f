import P5 from "../../../checks/host/P5.ts";
import { ackWith, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const SUBSET = ackWith({ representations: ["full"] });
const prefer = (p: unknown) => query({ representation_preferences: p });

runHostCases(P5, [
  {
    name: "preferences within what is advertised",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(prefer(["compact", "full"]))
        .end()
        .scenario("representations-subset")
        .handshake(SUBSET)
        .send(prefer(["full"]))
        .end(),
    status: "pass",
    says: [
      /scenario lock-step: every representation the host's queries prefer is advertised \(full, compact\) \(1 query: line 4\)/,
      /scenario representations-subset: .*\(full\)/,
    ],
  },
  {
    name: "compact preferred where only full is advertised",
    build: () =>
      hostTx()
        .scenario("representations-subset")
        .handshake(SUBSET)
        .send(prefer(["compact", "full"]))
        .end(),
    status: "fail",
    codes: ["host:P5.unadvertised"],
    says: [
      /scenario representations-subset, line 4: the host's query prefers "compact", which the provider's handshake_ack \(line 3\) does not advertise \(it advertises full\)/,
    ],
    lines: [4],
  },
  {
    name: "representations absent: full is advertised",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake(ackWith({ representations: undefined, resolve: undefined }))
        .send(prefer(["full"]))
        .end(),
    status: "pass",
    says: [/capabilities.representations is absent: full alone/],
  },
  {
    name: "representations absent: compact is not",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake(ackWith({ representations: undefined, resolve: undefined }))
        .send(prefer(["compact"]))
        .end(),
    status: "fail",
    codes: ["host:P5.unadvertised"],
    says: [/prefers "compact"/],
    lines: [4],
  },
  {
    name: "a representation outside the vocabulary",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(prefer(["hologram", "full"]))
        .end(),
    status: "fail",
    codes: ["host:P5.unadvertised"],
    says: [/prefers "hologram"/],
    lines: [4],
  },
  {
    name: "no preferences at all",
    build: () => hostTx().scenario("lock-step").honest(),
    status: "pass",
    says: [/no query the host sent states representation_preferences \(1 query: line 4\)/],
  },
  {
    name: "no query anywhere",
    build: () => hostTx().scenario("lock-step").handshake().send(SHUTDOWN).end(),
    status: "skip",
  },
]);
