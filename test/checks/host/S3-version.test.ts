import S3version from "../../../checks/host/S3-version.ts";
import { handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

runHostCases(S3version, [
  {
    name: "an honest host",
    build: () => hostTx().scenario("lock-step").honest().scenario("egress").honest(),
    status: "pass",
    says: [/scenario lock-step, line 2: the host's handshake names "contextgraph\/1.0" \(family contextgraph\/1\)/, /scenario egress, line 8/],
  },
  {
    name: "a draft version is in the grammar",
    build: () => hostTx().scenario("lock-step").handshake(undefined, "contextgraph/1.1-draft").send(SHUTDOWN).end(),
    status: "pass",
  },
  {
    name: "a bare version number",
    build: () => hostTx().scenario("lock-step").handshake(undefined, "1.0").send(SHUTDOWN).end(),
    status: "fail",
    codes: ["host:S3-version.off-grammar"],
    says: [/scenario lock-step, line 2: the host's handshake protocol_version "1.0" does not follow the version grammar/],
    lines: [2],
  },
  {
    name: "a major with no minor",
    build: () => hostTx().scenario("lock-step").honest().scenario("wrong-family").send(handshake("contextgraph/1")).end({ code: 1 }),
    status: "fail",
    codes: ["host:S3-version.off-grammar"],
    says: [/scenario wrong-family, line 8: .*"contextgraph\/1" does not follow/],
    lines: [8],
  },
  {
    name: "no protocol_version at all",
    build: () => hostTx().scenario("lock-step").send({ type: "handshake" }).end({ code: 1 }),
    status: "fail",
    codes: ["host:S3-version.off-grammar"],
    says: [/protocol_version absent does not follow/],
    lines: [2],
  },
  {
    name: "no handshake anywhere",
    build: () => hostTx().scenario("lock-step").send(query()).end({ code: 1 }),
    status: "skip",
    says: [/the host sent no handshake in any scenario/],
  },
]);
