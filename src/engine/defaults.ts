/** A run's defaults: apart from the engine, so a command's options can be described without loading it. */
export const DEFAULTS = {
  timeoutMs: 5000,
  deadlineMs: 120_000,
  limits: { maxLineBytes: 16 * 1024 * 1024, maxStderrBytes: 64 * 1024 },
} as const;
