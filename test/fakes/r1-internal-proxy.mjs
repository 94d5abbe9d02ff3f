// The reference provider (the command given as arguments), except that a line
// that is not a JSON envelope gets error code "internal" instead of
// "bad_request": alive and answering, so R1 only warns (its SHOULD).
import { proxy } from "./lib/proxy.mjs";
proxy({ outbound: (line) => (line.includes('"message":"not a JSON envelope') ? line.replace('"code":"bad_request"', '"code":"internal"') : line) });
