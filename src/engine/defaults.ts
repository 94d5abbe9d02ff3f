/** A run's defaults: apart from the engine, so a command's options can be described without loading it. */
export const DEFAULTS = {
  timeoutMs: 5000,
  /**
   * How long a session's first exchange may wait for the provider's first
   * line: real providers index a repository or load a model before they read
   * stdin, which takes seconds, and ten at once on a CI runner's two cores
   * take several times that.
   */
  startupTimeoutMs: 30_000,
  deadlineMs: 120_000,
  /** Provider instances alive at once: a provider that takes a gigabyte to load must not be loaded ten times over. */
  jobs: 4,
  limits: { maxLineBytes: 16 * 1024 * 1024, maxStderrBytes: 64 * 1024 },
} as const;
