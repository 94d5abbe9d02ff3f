/**
 * The run's secrets: its bearer token and nonce, made once per process (a
 * run is one process; the selftest's host cases share one), and the forms of
 * the token (raw, base64, hex) a host's output and files are searched for
 * (C8). Every form is registered with the redactor as it is made: the token
 * is ours as much as the host's, and nothing cgp-conform writes may carry it.
 */
import { randomBytes } from "node:crypto";
import type { RunSecrets } from "../reference/scenarios.ts";
import { registerSecret } from "../secret/redact.ts";

/** The forms of the run's token a line is searched for, each with its name. */
export function tokenForms(secrets: RunSecrets): Array<[string, string]> {
  return [
    ["raw", secrets.token],
    ["base64", Buffer.from(secrets.token).toString("base64")],
    ["hex", Buffer.from(secrets.token).toString("hex")],
  ];
}

let made: RunSecrets | undefined;

/**
 * The run's token and nonce, made once per process: a run is one process
 * (the selftest's host cases share one). The token is ours as much as the
 * host's: nothing cgp-conform writes may carry it, in any form.
 */
export function runSecrets(): RunSecrets {
  if (made) return made;
  made = { token: randomBytes(24).toString("base64url"), nonce: randomBytes(4).toString("hex") };
  for (const [, form] of tokenForms(made)) registerSecret(form);
  return made;
}
