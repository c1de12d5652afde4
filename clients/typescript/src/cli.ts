#!/usr/bin/env node
/** The `docconv` command: runs one command line with this process's streams and environment. */
import { run } from './cli/run';

run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env })
  .then((status) => {
    process.exitCode = status;
  })
  .catch((error: unknown) => {
    // `run` reports every error itself; this is the last resort, still without a stack.
    process.stderr.write(`docconv: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
