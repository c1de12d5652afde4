import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@docconv/testing';

/** The compiled CLI; `npm run build` compiles it with the rest. */
export const CLI = join(REPO_ROOT, 'clients', 'typescript', 'dist', 'cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `docconv` as a child process, asynchronously: the API answering it runs in the test's
 * process, so a blocking spawn would stall the very server the CLI is calling.
 */
export function docconv(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the tests`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
