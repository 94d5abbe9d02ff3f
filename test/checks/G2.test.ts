import G2 from "../../checks/G2.ts";
import { runCases } from "../helpers/cases.ts";
import { rel, relatedThenSilent, relating } from "../helpers/graph.ts";

runCases(G2, [
  {
    name: "absolute URIs of several schemes",
    build: relating(
      rel(),
      rel({ target_uri: "https://example.com/docs/retry" }),
      rel({ target_uri: "urn:isbn:0451450523" }),
      rel({ target_uri: "myindex:node/42" }),
      rel({ target_uri: "mailto:ops@example.com" }),
      rel({ target_uri: "file:///repo/src/a%20b.rs#L3" }),
      rel({ target_uri: "http://[::1]:8080/x" }),
      rel({ target_uri: "x:" }),
    ),
    status: "pass",
    says: [/every relation target_uri is a URI/],
  },
  {
    name: "a relative path",
    build: relating(rel({ target_uri: "src/net.rs" })),
    status: "fail",
    says: [
      /frame "frm_1" \(result\.frames\[0\], line 9\) relations\[0\] has target_uri "src\/net\.rs", which is not a URI \(no scheme, empty, or unparseable\) \| an absolute URI/,
    ],
  },
  { name: "an empty target_uri", build: relating(rel({ target_uri: "" })), status: "fail", says: [/has target_uri "", which is not a URI/] },
  { name: "no target_uri", build: relating(rel({ target_uri: undefined })), status: "fail", says: [/has target_uri absent, which is not a URI/] },
  {
    name: "a URI with an unescaped space",
    build: relating(rel({ target_uri: "file:///repo/my file.rs" })),
    status: "fail",
    says: [/has target_uri "file:\/\/\/repo\/my file\.rs", which is not a URI/],
  },
  {
    name: "an unparseable authority",
    build: relating(rel({ target_uri: "http://[::1/x" })),
    status: "fail",
    says: [/has target_uri "http:\/\/\[::1\/x", which is not a URI/],
  },
  { name: "no relations served", build: relating(), status: "skip", says: [/no served frame carries a relation/] },
  { name: "a later query left unanswered: what was served is judged, the lost query being another rule's stimulus", build: relatedThenSilent, status: "pass" },
]);

runCases(G2, [
  {
    name: "a Windows path",
    build: relating(rel({ target_uri: "C:\\repo\\src\\net.rs" })),
    status: "fail",
    says: [/has target_uri "C:\\\\repo\\\\src\\\\net\.rs", which is not a URI/],
  },
]);
