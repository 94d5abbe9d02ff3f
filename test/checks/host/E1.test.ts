import E1 from "../../../checks/host/E1.ts";
import { ackWith, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const FOREIGN = ackWith({ embeddings_fingerprint: "cgp-conform-4f2a/3/l2" });

runHostCases(E1, [
  {
    name: "an honest host sends no embedding",
    build: () => hostTx().scenario("lock-step").honest().scenario("foreign-embeddings").honest(FOREIGN),
    status: "pass",
    says: [
      /scenario lock-step: no query the host sent carries an embedding \(1 query: line 4\); the provider declares no embeddings_fingerprint/,
      /scenario foreign-embeddings: .*declares embeddings_fingerprint "cgp-conform-4f2a\/3\/l2", made for this run/,
    ],
  },
  {
    name: "an embedding sent to a provider with no fingerprint",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query({ embedding: [0.1, 0.2, 0.3, 0.4] }))
        .end(),
    status: "fail",
    codes: ["host:E1.unshared-embedding"],
    says: [
      /scenario lock-step, line 4: the host's query carries a vector of 4 in query.embedding, but the provider's handshake_ack \(line 3\) declares no embeddings_fingerprint/,
      /declared fingerprint: none/,
    ],
    lines: [4],
  },
  {
    name: "an embedding sent against a fingerprint no host can have",
    build: () =>
      hostTx()
        .scenario("foreign-embeddings")
        .handshake(FOREIGN)
        .send(query({ embedding: [1, 0, 0] }))
        .end(),
    status: "fail",
    codes: ["host:E1.unshared-embedding"],
    says: [/line 4: .*a vector of 3 .*"cgp-conform-4f2a\/3\/l2", made for this run, which no host can have/],
    lines: [4],
  },
  {
    name: "embedding: null is not populated",
    build: () =>
      hostTx()
        .scenario("foreign-embeddings")
        .handshake(FOREIGN)
        .send(query({ embedding: null }))
        .send(SHUTDOWN)
        .end(),
    status: "pass",
  },
  {
    name: "an empty embedding is not populated",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query({ embedding: [] }))
        .end(),
    status: "pass",
  },
  {
    name: "no query anywhere",
    build: () => hostTx().scenario("lock-step").handshake().send(SHUTDOWN).end(),
    status: "skip",
    says: [/the host sent no query in any scenario/],
  },
  {
    name: "a fingerprint the host might share is not judged",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake(ackWith({ embeddings_fingerprint: "bge-small-en-v1.5/384/l2" }))
        .send(query({ embedding: [1] }))
        .end(),
    status: "skip",
    says: [/every query went to a provider declaring a fingerprint the host might share/],
  },
]);
