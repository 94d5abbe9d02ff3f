import type { IncomingMessage } from "node:http";
import { registerSecret } from "../secret/redact.ts";
import type { Connection, ConnectionEvents, HttpTarget, Limits, Written } from "./connection.ts";
import { vetUrl } from "../protocol/loopback.ts";
import { parseObj } from "../protocol/envelope.ts";
import { firstBytes } from "./lines.ts";

/** Read the bearer token from the named environment variable (C8: from the environment, never a flag value). */
export function bearerToken(t: HttpTarget): string | undefined {
  if (!t.bearerTokenEnv) return undefined;
  const v = process.env[t.bearerTokenEnv];
  if (v === undefined || v === "") throw new TypeError(`--bearer-token-env ${t.bearerTokenEnv}: that environment variable is not set`);
  registerSecret(v);
  // RFC 6750's b64token: visible ASCII only. CR, LF or other bytes would split or break the header; the value is never shown.
  if (!/^[\x21-\x7e]+$/.test(v))
    throw new TypeError(`--bearer-token-env ${t.bearerTokenEnv}: the token has characters a bearer token cannot carry (spaces, CR, LF, control or non-ASCII)`);
  return v;
}

/** How many times a request is sent again after a kept-alive connection turned out closed. */
const STALE_RETRIES = 3;

/**
 * A request sent on a kept-alive connection the server was closing (its
 * idle timeout raced the request) is reset before any answer. Where that is
 * the race, the server did not take the request, and sending it again on a
 * fresh connection is what HTTP clients do; a POST is not idempotent, so
 * RFC 9112 §9.3.1 lets a client do it only where it knows the request was
 * not applied, which a reset cannot tell. A CGP request that a provider
 * took and then reset is no answer either way; the resend is recorded in
 * the transcript (note "resent") so it is never silent. A reset on a fresh
 * connection is not retried: it is the provider's, and is reported.
 */
export function staleSocket(req: { reusedSocket?: boolean }, e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return req.reusedSocket === true && (code === "ECONNRESET" || code === "EPIPE");
}

/**
 * The HTTP binding: "one envelope as the request body, one as the response
 * body". Requests go one at a time, in order, as lock-step requires; each
 * response body is one received line (an empty one, e.g. 204 to a
 * notification, is none).
 */
export class HttpConnection implements Connection {
  private chain: Promise<void> = Promise.resolve();
  private readonly aborter = new AbortController();
  private readonly url: URL;
  private readonly token: string | undefined;
  private reached = false;
  private failed = false;
  readonly done: Promise<void>;
  private finish!: () => void;

  constructor(
    private readonly target: HttpTarget,
    private readonly limits: Limits,
    private readonly on: ConnectionEvents,
  ) {
    this.url = vetUrl(target.url);
    this.token = bearerToken(target);
    this.done = new Promise((r) => (this.finish = r));
  }

  private writes = 0;

  /**
   * Requests wait their turn: one is posted once the one before it was
   * answered. `written` is told when the request went out, or why it never did.
   */
  write(line: string | Uint8Array, written?: Written): void {
    const k = ++this.writes;
    this.chain = this.chain.then(() => {
      if (this.failed) return void written?.("an earlier request could not reach the provider");
      if (this.aborter.signal.aborted)
        return void written?.("the session ended before its turn (HTTP requests go one at a time, each once the one before was answered)");
      return this.post(line, k, written);
    });
  }

  endInput(): void {}

  kill(): void {
    this.aborter.abort();
    void this.chain.then(() => this.finish());
  }

  private async post(line: string | Uint8Array, k: number, written?: Written): Promise<void> {
    // The bytes as they are: a body that is no UTF-8 is posted as such.
    const body = typeof line === "string" ? Buffer.from(line, "utf8") : line;
    // Loaded on the first request, not with the module: a run over stdio imports this module too.
    const send = this.url.protocol === "https:" ? (await import("node:https")).request : (await import("node:http")).request;
    // "localhost" is loopback by name only if no lookup can send it elsewhere: we connect to 127.0.0.1 ourselves.
    const byName = this.url.hostname.toLowerCase() === "localhost";
    const to = byName ? new URL(this.url.href.replace(/^(https?:\/\/)localhost/i, "$1127.0.0.1")) : this.url;
    let told = false;
    const tell = (unsent?: string): void => {
      if (told) return;
      told = true;
      written?.(unsent);
    };
    return new Promise((resolve) => {
      const attempt = (left: number): void => {
        let answered = false;
        const req = send(
          to,
          {
            method: "POST",
            ...(byName && this.url.protocol === "https:" ? { servername: "localhost" } : {}),
            // Explicit, so NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment cannot turn certificate checks off (C7).
            rejectUnauthorized: true,
            signal: this.aborter.signal,
            ...(this.target.ca ? { ca: this.target.ca } : {}),
            headers: {
              ...this.target.headers,
              ...(byName ? { host: this.url.host } : {}),
              "content-type": "application/json",
              accept: "application/json",
              "content-length": body.byteLength,
              ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
            },
          },
          (res) => {
            answered = true;
            // A response means the request reached the provider, even one answered before its body was all sent.
            tell();
            this.read(res, k, resolve);
          },
        );
        // "finish": the request's last bytes were handed to the operating system.
        req.on("finish", () => tell());
        req.on("error", (e) => {
          if (!answered && left > 0 && staleSocket(req, e) && !this.aborter.signal.aborted) {
            // Recorded: a provider that took the request and then reset the connection has it twice, and the transcript says so.
            this.on.resent?.(k, `${(e as { code?: string }).code ?? e.message} on a kept-alive connection before any answer: sent again on a fresh one`);
            return attempt(left - 1);
          }
          tell(this.aborter.signal.aborted ? "the session ended before the request was written" : `the request could not be written: ${e.message}`);
          if (!this.aborter.signal.aborted) {
            this.failed = true;
            this.on.unreachable("connect-error", `${this.reached ? "the provider stopped answering" : "cannot reach the provider"}: ${e.message}`);
          }
          resolve();
        });
        req.end(body);
      };
      attempt(STALE_RETRIES);
    });
  }

  private read(res: IncomingMessage, k: number, done: () => void): void {
    this.reached = true;
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const pool = this.limits.held;
    let held = 0;
    const release = (): void => {
      pool?.give(held);
      held = 0;
    };
    res.on("data", (c: Buffer) => {
      if (over) return;
      size += c.length;
      const room = pool ? pool.take(c.length) : true;
      if (room) held += c.length;
      if (size > this.limits.maxLineBytes || !room) {
        // Cut at the cap, not read to the deadline: a body that never ends must not grow without bound.
        over = true;
        release();
        res.destroy();
        this.on.line({ text: firstBytes([...chunks, c], 4096).toString("utf8"), bytes: size, overLong: true, status: res.statusCode, replyTo: k });
        chunks.length = 0;
        done();
      } else chunks.push(c);
    });
    res.on("error", () => {
      release();
      done();
    });
    res.on("close", release);
    res.on("end", () => {
      release();
      if (over) return;
      const text = Buffer.concat(chunks).toString("utf8");
      const status = res.statusCode ?? 0;
      // An error status with no envelope in its body answers the request with nothing: say so now, not after the timeout.
      if (status >= 400 && parseObj(text) === undefined && this.on.httpError) this.on.httpError(status, text.slice(0, 200), k);
      else if (size > 0) this.on.line({ text, bytes: size, overLong: false, status, replyTo: k });
      done();
    });
  }
}
