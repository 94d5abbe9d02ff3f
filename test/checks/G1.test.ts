import G1 from "../../checks/G1.ts";
import { runCases } from "../helpers/cases.ts";
import { neverServed, rel, relatedThenSilent, relating } from "../helpers/graph.ts";
import { frame, served } from "../helpers/transcript.ts";

runCases(G1, [
  {
    name: "every relation labelled",
    build: relating(rel(), rel({ rel: "doc.documents", display_name: "retry()" })),
    status: "pass",
    says: [/every relation has a display_name/],
  },
  {
    name: "an empty display_name",
    build: relating(rel({ display_name: "" })),
    status: "fail",
    codes: ["G1.no-display-name"],
    says: [
      /frame "frm_1" \(result\.frames\[0\], line 9\) relations\[0\] \("code\.calls" → "file:\/\/\/repo\/src\/net\.rs#retry"\) has display_name "" \| a non-empty string \| ""/,
    ],
  },
  {
    name: "no display_name",
    build: relating(rel({ display_name: undefined })),
    status: "fail",
    says: [/relations\[0\] .* has display_name absent/],
    codes: ["G1.no-display-name"],
  },
  {
    name: "the second relation of the second frame",
    build: () => served([frame(), frame({ id: "frm_2", relations: [rel(), rel({ rel: "code.imports", display_name: "" })] })]),
    status: "fail",
    says: [/frame "frm_2" \(result\.frames\[1\], line 9\) relations\[1\] \("code\.imports" → /],
  },
  {
    name: "no relations served",
    build: () => served([frame(), frame({ id: "frm_2", relations: [] })]),
    status: "skip",
    says: [/no served frame carries a relation/],
  },
  {
    name: "a later query left unanswered: what was served is judged, the lost query being another rule's stimulus",
    build: relatedThenSilent,
    status: "pass",
    says: [],
  },
  {
    name: "no query answered at all: what relations there would be was not seen, which is no skip",
    build: neverServed,
    status: "unobserved",
    untestable: true,
    says: [/query sent at line \d+ \(probe sample-query, step sample\) got no frames or error reply: no reply within 800 ms/],
  },
]);
