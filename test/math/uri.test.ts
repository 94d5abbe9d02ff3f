import fc from "fast-check";
import t from "tap";
import { isIpv6, isUri, parseUri, type UriPart } from "../../src/math/uri.ts";

const valid: Array<[string, string]> = [
  ["symbol:std::collections::HashMap", "no authority: path-rootless, whose segments may hold ':'"],
  ["x:", "path-empty: a scheme and nothing else"],
  ["file:///repo/src/net.rs", "an empty reg-name, then path-abempty"],
  ["https://[::1]:8080/a?b#c", "an IPv6 literal with a port, a query and a fragment"],
  ["urn:isbn:0451450523", "path-rootless with colons"],
  ["mailto:a@b", "'@' is a pchar"],
  ["myindex:node/42", "a vendor scheme"],
  ["file:///repo/src/a%20b.rs#L3", "a pct-encoded space"],
  ["x:%41%2f%2F", "pct-encoded, HEXDIG in either case"],
  ["x:%00", "any octet may be pct-encoded"],
  ["http://h/%7E~", "an encoded and a bare tilde"],
  ["http://exa%6Dple.com/", "pct-encoded in a reg-name"],
  ["http://example.com:/", "an empty port (port = *DIGIT)"],
  ["http://user:pa:ss@host:80/p", "userinfo holds ':'"],
  ["http://", "an empty authority and an empty path"],
  ["http://999.999.999.999/", "not an IPv4address, but a reg-name"],
  ["http://[1:2:3:4:5:6:7:8]/", "eight pieces"],
  ["http://[1:2:3:4:5:6:7::]/", "seven pieces and '::'"],
  ["http://[::]/", "all zeros"],
  ["http://[::ffff:192.0.2.1]/", "an IPv4address as the last two pieces"],
  ["http://[1:2:3:4:5:6:1.2.3.4]/", "six pieces and an IPv4address"],
  ["http://[v1.fe80::a+en1]/", "IPvFuture"],
  ["http://[V7.x]/", "IPvFuture's 'v' is case-insensitive"],
  ["foo:/a//b", "path-absolute with an empty segment"],
  ["x:a?b/c?d#e/f?g", "'/' and '?' in query and fragment"],
  ["x:?#", "an empty query and an empty fragment"],
  ["a+b.c-d:x", "a scheme with '+', '.', '-'"],
  ["C:/repo/src/net.rs", "a one-letter scheme is still a scheme"],
];

const invalid: Array<[string, UriPart, RegExp]> = [
  ["symbol://std::collections::HashMap", "port", /its authority "std::collections::HashMap" has a port that is not digits/],
  ["", "uri", /it is empty/],
  ["src/net.rs", "scheme", /no scheme.*relative reference/],
  ["//host/path", "scheme", /relative reference/],
  ["/abs/path", "scheme", /relative reference/],
  ["?q=1", "scheme", /relative reference/],
  ["#frag", "scheme", /relative reference/],
  ["./a:b", "scheme", /relative reference/],
  [":nothing", "scheme", /scheme .* is empty/],
  ["1http://x", "scheme", /its scheme "1http" is not a letter/],
  ["a b:c", "scheme", /its scheme "a b"/],
  ["file:///repo/my file.rs", "path", /its path "\/repo\/my file\.rs" has a space/],
  ["http://h/a b?c", "path", /a space/],
  ["http://h/?q=<x>", "query", /its query "q=<x>" has "<"/],
  ["x:a#b#c", "fragment", /its fragment "b#c" has "#"/],
  ["x:a[b]", "path", /has "\["/],
  ["x:%4", "path", /a "%" that begins no %XX escape/],
  ["x:%zz", "path", /a "%" that begins no %XX escape/],
  ["x:100%", "path", /a "%" that begins no %XX escape/],
  ["urn:é", "path", /U\+00E9 \(not ASCII\)/],
  ["x:a\nb", "path", /U\+000A/],
  ["http://[::1/x", "host", /opens an IP literal with "\[" and never closes it/],
  ["http://[::1]x/", "host", /has "x" after the IP literal/],
  ["http://[::g]/", "host", /neither an IPv6 address/],
  ["http://[1:2:3:4:5:6:7:8:9]/", "host", /neither an IPv6 address/],
  ["http://[1:2:3:4:5:6:7:8::]/", "host", /neither an IPv6 address/],
  ["http://[1::2::3]/", "host", /neither an IPv6 address/],
  ["http://[fe80::1%25eth0]/", "host", /neither an IPv6 address/],
  ["http://[1.2.3.4]/", "host", /neither an IPv6 address/],
  ["http://[1.2.3.4::]/", "host", /neither an IPv6 address/],
  ["s://u@[a:1.2.3.4::]/", "host", /neither an IPv6 address/],
  ["http://[::256.1.1.1]/", "host", /neither an IPv6 address/],
  ["http://[::01.1.1.1]/", "host", /neither an IPv6 address/],
  ["http://a@b@c/", "userinfo", /more than one "@"/],
  ["http://h:8o/", "port", /has a port that is not digits \("8o" after the host "h"/],
  ["http://h:-1/", "port", /not digits/],
  ["http://ex ample.com/", "host", /has the host "ex ample\.com" with a space/],
  ["http://exa%mple.com/", "host", /a "%" that begins no %XX escape/],
  ["C:\\repo\\src\\net.rs", "path", /"\\\\".*a Windows path/],
];

t.test("RFC 3986 URIs are accepted", async (t) => {
  for (const [s, why] of valid) {
    const r = parseUri(s);
    t.ok(r.ok, `${JSON.stringify(s)}: ${why}${r.ok ? "" : ` (refused: ${r.problem})`}`);
  }
});

t.test("what is not a URI is refused, naming the part that breaks", async (t) => {
  for (const [s, part, says] of invalid) {
    const r = parseUri(s);
    if (r.ok) {
      t.fail(`${JSON.stringify(s)} is accepted`);
      continue;
    }
    t.equal(r.part, part, `${JSON.stringify(s)} breaks at its ${part}`);
    t.match(r.problem, says, `${JSON.stringify(s)}: ${r.problem}`);
  }
});

t.test("the parts of a URI", async (t) => {
  t.same(parseUri("https://u@[::1]:8080/a?b#c"), {
    ok: true,
    scheme: "https",
    authority: { userinfo: "u", host: "[::1]", port: "8080" },
    path: "/a",
    query: "b",
    fragment: "c",
  });
  t.same(parseUri("symbol:std::collections::HashMap"), { ok: true, scheme: "symbol", path: "std::collections::HashMap" });
  t.same(parseUri("file:///repo/src/net.rs"), { ok: true, scheme: "file", authority: { host: "" }, path: "/repo/src/net.rs" });
});

t.test("a fix is offered where the break suggests one, and it is a URI", async (t) => {
  const cases: Array<[string, RegExp]> = [
    [
      "symbol://std::collections::HashMap",
      /^write symbol:std::collections::HashMap \(no authority.*\), or percent-encode the colons: symbol:\/\/std%3A%3Acollections%3A%3AHashMap$/,
    ],
    ["file:///repo/my file.rs", /^write file:\/\/\/repo\/my%20file\.rs$/],
    ["x:100%", /^write x:100%25$/],
    ["urn:é", /^write urn:%C3%A9$/],
    ["x:a#b#c", /^write x:a#b%23c$/],
    ["C:\\repo\\src\\net.rs", /^write file:\/\/\/C:\/repo\/src\/net\.rs$/],
  ];
  for (const [s, fix] of cases) {
    const r = parseUri(s);
    t.notOk(r.ok, `${JSON.stringify(s)} is refused`);
    if (r.ok) continue;
    t.match(r.fix, fix, `${JSON.stringify(s)}: ${r.fix}`);
    for (const candidate of (r.fix ?? "").matchAll(/(?:write|colons:) (\S+)/g)) t.ok(isUri(candidate[1]), `${candidate[1]} is a URI`);
  }
  const none = parseUri("src/net.rs");
  t.equal(none.ok ? "" : none.fix, undefined, "a relative reference gets no invented base");
});

t.test("IPv6address: each of the ABNF's nine forms, and their limits", async (t) => {
  const yes = ["1:2:3:4:5:6:7:8", "::2:3:4:5:6:7:8", "1::3:4:5:6:7:8", "1:2::4:5:6:7:8", "1:2:3::5:6:7:8", "1:2:3:4::6:7:8", "1:2:3:4:5::7:8"];
  const more = ["1:2:3:4:5:6::8", "1:2:3:4:5:6:7::", "::", "::1", "1::", "::1.2.3.4", "1:2:3:4:5::1.2.3.4", "ABCD:ef01::1"];
  for (const s of [...yes, ...more]) t.ok(isIpv6(s), s);
  const no = [
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6::1.2.3.4",
    "1::2::3",
    ":1::",
    "1::2:",
    "12345::",
    "1.2.3.4",
    "::1.2.3",
    "::1.2.3.4:5",
    "g::",
    "1.2.3.4::",
    "a:1.2.3.4::",
  ];
  for (const s of no) t.notOk(isIpv6(s), s);
});

t.notOk(isUri(7), "a number is not a URI");
t.notOk(isUri(undefined), "nor is nothing");

/**
 * A second reading of the same ABNF, as one regular expression (JavaScript's
 * backtracking tries every alternative, so it recognises exactly the
 * grammar): the parser must agree with it on every string.
 */
function abnfRegex(): RegExp {
  const unreserved = "[A-Za-z0-9\\-._~]";
  const pct = "%[0-9A-Fa-f]{2}";
  const sub = "[!$&'()*+,;=]";
  const pchar = `(?:${unreserved}|${pct}|${sub}|[:@])`;
  const h16 = "[0-9A-Fa-f]{1,4}";
  const dec = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])";
  const v4 = `${dec}\\.${dec}\\.${dec}\\.${dec}`;
  const ls32 = `(?:${h16}:${h16}|${v4})`;
  const v6 = [
    `(?:${h16}:){6}${ls32}`,
    `::(?:${h16}:){5}${ls32}`,
    `(?:${h16})?::(?:${h16}:){4}${ls32}`,
    `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
    `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
    `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
    `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
    `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
    `(?:(?:${h16}:){0,6}${h16})?::`,
  ].join("|");
  const ipLiteral = `\\[(?:${v6}|[vV][0-9A-Fa-f]+\\.(?:${unreserved}|${sub}|:)+)\\]`;
  const host = `(?:${ipLiteral}|${v4}|(?:${unreserved}|${pct}|${sub})*)`;
  const authority = `(?:(?:${unreserved}|${pct}|${sub}|:)*@)?${host}(?::[0-9]*)?`;
  const segment = `${pchar}*`;
  const hier = `(?://${authority}(?:/${segment})*|/(?:${pchar}+(?:/${segment})*)?|${pchar}+(?:/${segment})*|)`;
  const qf = `(?:${pchar}|[/?])*`;
  return new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:${hier}(?:\\?${qf})?(?:#${qf})?$`);
}

t.test("the parser and the ABNF as a regular expression agree", async (t) => {
  const URI = abnfRegex();
  for (const [s] of valid) t.ok(URI.test(s), `the regular expression accepts ${JSON.stringify(s)} too`);
  for (const [s] of invalid) t.notOk(URI.test(s), `the regular expression refuses ${JSON.stringify(s)} too`);
  const pieces = [
    "a",
    "Z",
    "0",
    "9",
    "1.2.3.4",
    ":",
    "::",
    "/",
    "//",
    "?",
    "#",
    "[",
    "]",
    "@",
    "%",
    "%2F",
    "%4",
    "v1.",
    "ff",
    ".",
    "-",
    "+",
    "~",
    "!",
    " ",
    "é",
    "\\",
  ];
  const grammatical = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((xs) => xs.join(""));
  const prefixed = fc.tuple(fc.constantFrom("x:", "http://", "http://[", "s://u@", "urn:"), grammatical).map(([a, b]) => a + b);
  fc.assert(
    fc.property(
      fc.oneof(grammatical, prefixed, fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string()),
      (s) => parseUri(s).ok === URI.test(s),
    ),
    { numRuns: 20_000 },
  );
});
