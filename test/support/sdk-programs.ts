import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@docconv/testing';

/** The SDKs under clients/, each with a smoke program. */
export const CLIENTS = join(REPO_ROOT, 'clients');

export interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the event loop: the API under test answers in this process. */
export function runProgram(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Fails with everything the program printed, so a broken step is visible in the test report. */
export function expectSuccess(outcome: Outcome): void {
  if (outcome.status !== 0) throw new Error(`exit ${outcome.status}\n${outcome.stdout}\n${outcome.stderr}`);
}

/**
 * Each SDK's smoke program, ready to run (the Go one built, the Java one compiled, offline: their
 * dependencies are in the module caches since setup): `run(env)` runs it; `close` removes what was built.
 */
export async function smokePrograms(): Promise<{
  programs: Record<'python' | 'go' | 'java', (env: NodeJS.ProcessEnv) => Promise<Outcome>>;
  close: () => Promise<void>;
}> {
  const folder = await mkdtemp(join(tmpdir(), 'docconv-smoke-'));
  const binary = join(folder, 'smoke');
  const offline = { GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  expectSuccess(await runProgram('go', ['build', '-o', binary, './smoke'], join(CLIENTS, 'go'), offline));
  const java = join(CLIENTS, 'java');
  expectSuccess(await runProgram('mvn', ['-o', '-q', 'compile'], java));
  const classPath = `${join(java, 'target', 'classes')}:${readFileSync(join(java, 'target', 'classpath.txt'), 'utf8').trim()}`;
  return {
    programs: {
      python: (env) =>
        runProgram(
          join(REPO_ROOT, '.venv', 'bin', 'python'),
          [join(CLIENTS, 'python', 'smoke', 'smoke.py')],
          join(CLIENTS, 'python'),
          {
            ...env,
            PYTHONPATH: join(CLIENTS, 'python'),
            PYTHONDONTWRITEBYTECODE: '1',
          },
        ),
      go: (env) => runProgram(binary, [], folder, env),
      java: (env) => runProgram('java', ['-cp', classPath, join(java, 'smoke', 'Smoke.java')], java, env),
    },
    close: () => rm(folder, { recursive: true, force: true }),
  };
}
