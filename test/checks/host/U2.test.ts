import U2 from "../../../checks/host/U2.ts";
import { frame, frames, handshake, hostTx, query, runHostCases, SHUTDOWN } from "../../helpers/host-transcript.ts";
import { block, turns } from "../../helpers/compose.ts";
import type { Held } from "../../../src/reference/host.ts";

const ECHO = { rel: "cgp-conform:echoes", target_uri: "file:///repo/docs/retry.md", display_name: "itself" };
const ODD = frames([frame({ kind: "hologram", relations: [ECHO] }), frame({ id: "fixture:two" })]);
const ODD_REL = frames([frame({ relations: [ECHO] })]);

const known = (h: Held): boolean => h.frame.kind !== "hologram";
/** The held frames with the unknown kind shown as `kind` (a host rewriting it). */
const rekinded = (held: Held[], kind: string): Held[] => held.map((h) => (known(h) ? h : { ...h, frame: { ...h.frame, kind } }));
/** A host's own rendering, its kind after the content: a footer. */
const footer = (held: Held[], kindOf: (h: Held) => string = (h) => String(h.frame.kind)): string =>
  held.map((h) => `--- ${String(h.frame.title)}\n${String(h.frame.content)}\n(kind: ${kindOf(h)})`).join("\n\n");
/** A host's own rendering with no kind at all. */
const kindless = (held: Held[]): string => held.map((h) => `## ${String(h.frame.title)}\n${String(h.frame.content)}`).join("\n\n");
/** lock-step and unknown-vocabulary as the scenario providers serve them, each turn's block composed as `compose` does in unknown-vocabulary. */
const delivered = (compose: (held: Held[], turn: number) => string | undefined, count = 1, countHere = count) =>
  turns(turns(hostTx(), "lock-step", undefined, count), "unknown-vocabulary", compose, countHere);

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
    codes: ["host:U2.crashed"],
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
    codes: ["host:U2.ending-differs"],
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
  {
    name: "what it delivered: every frame of the answer in its block, as in lock-step",
    build: () => delivered(block),
    status: "pass",
    says: [
      /scenario unknown-vocabulary, line \d+: the block holds every one of the 5 frames that lock-step's first block \(line \d+\) holds, after an answer \(line \d+\) that differs only by an unknown kind and rel/,
    ],
  },
  {
    name: "the whole answer dropped, exit 0 all the same: no block",
    build: () => delivered(() => undefined),
    status: "fail",
    codes: ["host:U2.answer-dropped"],
    says: [
      /scenario unknown-vocabulary: the host wrote no block holding a frame it was served, so none of the 4 frames that carry nothing unknown \(cgpmark-fx-02, cgpmark-fx-03, cgpmark-fx-04, cgpmark-fx-05\) that lock-step's first block \(line \d+\) holds is there/,
      /it composed nothing of that answer, as a host that failed to deserialise or rejected it would/,
    ],
    never: [/exited with status 0 \(line \d+\), but/],
  },
  {
    name: "a block holding no frame at all: as none",
    build: () => delivered(() => "Retrieved context: (none)"),
    status: "fail",
    codes: ["host:U2.answer-dropped"],
    says: [/the host wrote no block holding a frame it was served, so none of the 4 frames/],
  },
  {
    name: "a block with the unknown frame only",
    build: () => delivered((held) => block(held.filter((h) => !known(h)))),
    status: "fail",
    codes: ["host:U2.answer-dropped"],
    says: [/scenario unknown-vocabulary, line \d+: the block holds none of the 4 frames that carry nothing unknown/],
  },
  {
    name: "a block without one of the known frames: a warning",
    build: () => delivered((held) => block(held.filter((h) => !String(h.frame.content).includes("cgpmark-fx-05")))),
    status: "warn",
    codes: ["host:U2.frames-dropped"],
    says: [/the block holds 3 of the 4 frames that carry nothing unknown that lock-step's first block \(line \d+\) holds, and not cgpmark-fx-05/],
  },
  {
    name: "the frame of the unknown kind left out: a warning",
    build: () => delivered((held) => block(held.filter(known))),
    status: "warn",
    codes: ["host:U2.opaque-dropped"],
    says: [/the block leaves out cgpmark-fx-01 \(of an unknown kind or rel\), which lock-step's first block \(line \d+\) holds/],
  },
  {
    name: "the kind shown beside each frame as served, the unknown one too: kept verbatim",
    build: () => delivered(block),
    status: "pass",
    codes: ["host:U2.kind-kept"],
    says: [
      /scenario unknown-vocabulary, \{context\} line \d+: the block shows each frame's kind beside it \("fact", "snippet", "symbol", "doc"\), and the frame of the unknown kind \(cgpmark-fx-01\) beside its kind "hologram", verbatim/,
    ],
  },
  {
    name: "the unknown kind shown as unknown",
    build: () => delivered((held) => block(rekinded(held, "unknown"))),
    status: "fail",
    codes: ["host:U2.kind-rewritten"],
    says: [
      /but not the unknown kind "hologram" beside its frame \(cgpmark-fx-01\): it shows "unknown" there instead; a host that re-emits a frame of an unknown kind keeps the kind string as served/,
    ],
  },
  {
    name: "the unknown kind upper-cased, the base kinds as served",
    build: () => delivered((held) => block(rekinded(held, "HOLOGRAM"))),
    status: "fail",
    codes: ["host:U2.kind-rewritten"],
    says: [/it shows "HOLOGRAM" there instead/],
  },
  {
    name: "the unknown kind dropped from beside its frame",
    build: () => delivered((held) => block(rekinded(held, ""))),
    status: "fail",
    codes: ["host:U2.kind-rewritten"],
    says: [/but not the unknown kind "hologram" beside its frame \(cgpmark-fx-01\); a host/],
  },
  {
    name: "kinds written after each frame's content: kept",
    build: () => delivered((held) => footer(held)),
    status: "pass",
    codes: ["host:U2.kind-kept"],
  },
  {
    name: "kinds written after each frame's content, the unknown one as doc",
    build: () => delivered((held) => footer(rekinded(held, "doc"))),
    status: "fail",
    codes: ["host:U2.kind-rewritten"],
    says: [/it shows "doc" there instead/],
  },
  {
    name: "a host that shows no kinds is not judged on them",
    build: () => delivered(kindless),
    status: "pass",
    codes: ["host:U2.kinds-not-shown"],
    says: [/show no kind beside each frame as served, so whether it keeps an unknown kind verbatim where it re-emits a frame is not judged/],
    never: [/kind-rewritten|instead/],
  },
  {
    name: "a host that shows every kind its own way (upper-cased) is not judged on them",
    build: () => delivered((held) => footer(held, (h) => String(h.frame.kind).toUpperCase())),
    status: "pass",
    codes: ["host:U2.kinds-not-shown"],
  },
  {
    name: "a host of two turns that carries on after the unknown answer",
    build: () => delivered(block, 2),
    status: "pass",
    says: [
      /the host carried on after the answer at line \d+: its next query \(line \d+\) was answered \(line \d+\), and a later block \(line \d+\) holds 5 of that answer's frames, as lock-step's block at line \d+ holds the frames of its second answer/,
    ],
  },
  {
    name: "a host of two turns whose next query the provider answered, but whose blocks hold nothing of either answer: it did not carry on",
    // As a host whose reader died on the unknown kind: both queries sent and answered, two blocks written, no frame in them.
    build: () => delivered(() => "Retrieved 0 context frame(s), 0/4096 budget tokens.", 2),
    status: "fail",
    codes: ["host:U2.answer-dropped"],
    says: [/the host wrote no block holding a frame it was served, so none of the 4 frames/, /; and so for 1 later block of lock-step's \(line \d+\)/],
    never: [/carried on/, /was answered/],
  },
  {
    name: "blocks that hold no frame content, in both scenarios: only the ending is compared, and it says so",
    build: () =>
      turns(
        turns(hostTx(), "lock-step", () => "Retrieved 5 context frame(s).", 2),
        "unknown-vocabulary",
        () => "Retrieved 5 context frame(s).",
        2,
      ),
    status: "info",
    codes: ["host:U2.uncomparable"],
    says: [
      /the host exited with status 0 \(line \d+\), as in lock-step/,
      /scenario unknown-vocabulary: what the host delivered after an answer \(line \d+\) that differs from lock-step's only by an unknown kind and rel cannot be compared with lock-step's: lock-step's 2 blocks \(lines \d+, \d+\) hold no frame content \(no marker of a frame served there\), nor do its 2 blocks here \(lines \d+, \d+\), so only how it ended is compared/,
      /the host sent its next query \(line \d+\), as in lock-step \(line \d+\), and the provider answered it \(line \d+\); whether the host received and used that answer cannot be seen: lock-step's blocks hold no frame content/,
    ],
    never: [/carried on/],
  },
  {
    name: "a host of one turn whose blocks hold no frame content: info, not a clean pass",
    build: () =>
      turns(
        turns(hostTx(), "lock-step", () => "Retrieved 5 context frame(s)."),
        "unknown-vocabulary",
        () => "Retrieved 5 context frame(s).",
      ),
    status: "info",
    codes: ["host:U2.uncomparable"],
    says: [/cannot be compared with lock-step's: lock-step's block \(line \d+\) holds no frame content/],
  },
  {
    name: "a host of two turns that stops after the unknown answer, and composes nothing of it",
    build: () => delivered(() => undefined, 2, 1),
    status: "fail",
    codes: ["host:U2.answer-dropped"],
    never: [/no block 2/],
    says: [
      /the host wrote no block holding a frame it was served, so none of the 4 frames/,
      /; and so for 1 later block of lock-step's \(line \d+\)/,
      /after the answer at line \d+, which differs from lock-step's only by an unknown kind and rel, the host sent no further query, though in lock-step it sent 1 more query after its first answer/,
    ],
  },
]);
