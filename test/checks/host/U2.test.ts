import U2 from "../../../checks/host/U2.ts";
import { frame, frames, handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";

const ECHO = { rel: "cgp-conform:echoes", target_uri: "file:///repo/docs/retry.md", display_name: "itself" };
const ODD = frames([frame({ kind: "hologram", relations: [ECHO] }), frame({ id: "fixture:two" })]);
const ODD_REL = frames([frame({ relations: [ECHO] })]);

runHostCases(U2, [
  {
    name: "an unknown kind and rel taken as opaque evidence",
    build: () => hostTx().scenario("lock-step").honest().scenario("unknown-vocabulary").honest(undefined, ODD),
    status: "pass",
    says: [
      /scenario unknown-vocabulary: the host exited with status 0 \(line 13\), as in lock-step \(line 7\); it was served kind "hologram" \(line 11\); rel "cgp-conform:echoes" \(line 11\)/,
    ],
  },
  {
    name: "only the rel served where the query narrowed kinds",
    build: () => hostTx().scenario("lock-step").honest().scenario("unknown-vocabulary").honest(undefined, ODD_REL),
    status: "pass",
    says: [/no frame of kind "hologram" \(every query narrowed kinds\); rel "cgp-conform:echoes" \(line 11\)/],
  },
  {
    name: "a crash on the unknown kind",
    build: () => hostTx().scenario("lock-step").honest().scenario("unknown-vocabulary").handshake().send(query()).answer(ODD).end({ signal: "SIGSEGV" }),
    status: "fail",
    says: [/after it was served kind "hologram" \(line 11\).*the host crashed \(it was ended by SIGSEGV, line 12\)/],
    lines: [11, 12],
  },
  {
    name: "rejecting the frame: an ending unlike lock-step's",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .honest()
        .scenario("unknown-vocabulary")
        .handshake()
        .send(query())
        .answer(ODD)
        .print("stderr", "unknown variant `hologram`")
        .end({ code: 1 }),
    status: "fail",
    says: [/the host exited with status 1 \(line 13\), but in lock-step, identical but for an unknown kind and rel, it exited with status 0 \(line 7\)/],
    lines: [13],
  },
  {
    name: "a host that hangs in both is consistent",
    build: () =>
      hostTx()
        .scenario("lock-step")
        .handshake()
        .send(query())
        .answer(frames())
        .end({ hang: 1000 })
        .scenario("unknown-vocabulary")
        .handshake()
        .send(query())
        .answer(ODD)
        .end({ hang: 1000 }),
    status: "pass",
  },
  {
    name: "nothing unknown reached the host",
    build: () =>
      hostTx().scenario("lock-step").honest().scenario("unknown-vocabulary").send(handshake()).answer({ type: "handshake_ack" }).send(SHUTDOWN).end(),
    status: "skip",
    says: [/no frames answer carrying the unknown kind or rel reached the host/],
  },
]);
