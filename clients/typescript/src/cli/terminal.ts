/** The streams and environment a command runs with; the entry point passes the process's own. */
export interface Terminal {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** A mistake in the command line itself: it exits with status 2 and the command's usage. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * A failure the CLI explains itself (no credential saved, a declined confirmation, a job
 * that ended in error): exits with `exitCode` after printing the message and the hint.
 */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly hint?: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliFailure';
  }
}
