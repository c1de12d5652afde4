#!/usr/bin/env node
// The `docconv` command as npm links it: this file exists before the SDK is built (npm links
// bins at install time, and skips a bin whose file is missing), and runs the compiled CLI.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write(
    'docconv: the CLI is not built yet. Build it with `npm --prefix clients/typescript run build` ' +
      '(from the repository root), then run `npx docconv --help`.\n',
  );
  process.exitCode = 1;
}
