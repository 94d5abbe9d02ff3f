// A lock-step provider (the command given as arguments: the reference provider's lockstep variant) that
// answers a query with no query member as if it had asked for the defaults: frames, not bad_request (a
// SHOULD shortfall, R1), and every other line as the provider does.
import { parsed, proxy } from "./lib/proxy.mjs";
const DEFAULTS = { goal: "anything", kinds: [], anchors: [], max_frames: 4, max_tokens: 2000 };
proxy({ inbound: (l) => (parsed(l)?.type === "query" && parsed(l).query === undefined ? JSON.stringify({ ...parsed(l), query: DEFAULTS }) : l) });
