// A lock-step provider (the command given as arguments) that leaves an envelope of an unknown type
// unanswered (in lock-step it carries no id: it may be a notification, and ignoring it is honest).
import { proxy } from "./lib/proxy.mjs";
proxy({ outbound: (l) => (l.includes("unknown envelope type") ? undefined : l) });
