import t from "tap";
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
      rel({ target_uri: "https://[::1]:8080/a?b#c" }),
      rel({ target_uri: "symbol:std::collections::HashMap" }),
      rel({ target_uri: "x:" }),
    ),
    status: "pass",
    says: [/every relation target_uri is a URI/],
  },
  {
    name: "a relative path",
    build: relating(rel({ target_uri: "src/net.rs" })),
    status: "fail",
    codes: ["G2.not-a-uri"],
    says: [
      /frame "frm_1" \(result\.frames\[0\], line 9\) relations\[0\] has target_uri "src\/net\.rs", which is not a URI: it has no scheme .*relative reference, not a URI \| an absolute URI \(RFC 3986\), e\.g\. file:/,
    ],
  },
  {
    name: "a name with colons after //: the authority's port is not digits",
    build: relating(rel({ target_uri: "symbol://std::collections::HashMap" })),
    status: "fail",
    says: [
      /has target_uri "symbol:\/\/std::collections::HashMap", which is not a URI: its authority "std::collections::HashMap" has a port that is not digits/,
      /\| a URI \(RFC 3986\): write symbol:std::collections::HashMap \(no authority.*\), or percent-encode the colons: symbol:\/\/std%3A%3Acollections%3A%3AHashMap \|/,
    ],
  },
  {
    name: "an empty target_uri",
    build: relating(rel({ target_uri: "" })),
    status: "fail",
    codes: ["G2.schema"],
    says: [/relations\/0\/target_uri must not be empty/],
  },
  { name: "no target_uri", build: relating(rel({ target_uri: undefined })), status: "fail", says: [/required member "target_uri" is missing/] },
  { name: "a target_uri that is no string", build: relating(rel({ target_uri: 7 })), status: "fail", says: [/target_uri must be string/] },
  {
    name: "a URI with an unescaped space",
    build: relating(rel({ target_uri: "file:///repo/my file.rs" })),
    status: "fail",
    says: [
      /has target_uri "file:\/\/\/repo\/my file\.rs", which is not a URI: its path .* has a space, .*\| a URI \(RFC 3986\): write file:\/\/\/repo\/my%20file\.rs/,
    ],
  },
  {
    name: "an unparseable authority",
    build: relating(rel({ target_uri: "http://[::1/x" })),
    status: "fail",
    says: [/has target_uri "http:\/\/\[::1\/x", which is not a URI: its authority "\[::1" opens an IP literal/],
  },
  {
    name: "a stray percent sign",
    build: relating(rel({ target_uri: "file:///repo/100%.md" })),
    status: "fail",
    says: [/a "%" that begins no %XX escape.*write file:\/\/\/repo\/100%25\.md/],
  },
  { name: "no relations served", build: relating(), status: "skip", says: [/no served frame carries a relation/] },
  { name: "a later query left unanswered: what was served is judged, the lost query being another rule's stimulus", build: relatedThenSilent, status: "pass" },
  {
    name: "a Windows path",
    build: relating(rel({ target_uri: "C:\\repo\\src\\net.rs" })),
    status: "fail",
    says: [/has target_uri "C:\\\\repo\\\\src\\\\net\.rs", which is not a URI: .*a Windows path.*write file:\/\/\/C:\/repo\/src\/net\.rs/],
  },
]);

t.test("one bad target_uri is one finding, whichever rule sees it", async (t) => {
  for (const target_uri of ["", undefined, 7, "src/net.rs", "symbol://std::collections::HashMap"]) {
    const r = relating(rel({ target_uri }))().scoreWith(G2);
    const failing = r.evidence.filter((e) => e.status === "fail");
    t.equal(failing.length, 1, `${JSON.stringify(target_uri)}: ${failing.map((e) => e.message).join(" / ")}`);
  }
});
