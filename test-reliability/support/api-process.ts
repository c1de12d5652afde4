import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { distEntry, TEST_OUTPUT } from '@docconv/testing';
import { freePort } from '../../tools/stack/services';

/** The compiled API running as a process of its own, and where it listens. */
export interface ApiProcess {
  child: ChildProcess;
  baseUrl: string;
}

/**
 * Starts the compiled API (`dist/apps/api/src/main.js`) on a free port, as production runs it,
 * and resolves once it answers its liveness check. Its log goes to test-output/.
 */
export async function spawnApi(env: NodeJS.ProcessEnv, logName: string): Promise<ApiProcess> {
  const port = await freePort();
  mkdirSync(TEST_OUTPUT, { recursive: true });
  const log = createWriteStream(join(TEST_OUTPUT, `${logName}-${process.pid}-${Date.now()}.log`));
  const child = spawn(process.execPath, [distEntry('api')], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    if (isGone(child))
      throw new Error(`the API exited (${child.exitCode ?? child.signalCode}); see its log in test-output/`);
    const live = await fetch(`${baseUrl}/api/v1/health`).catch(() => undefined);
    if (live?.status === 200) return { child, baseUrl };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the API did not answer its liveness check within a minute; see its log in test-output/');
}

/** Whether the process has exited or been killed. */
export function isGone(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}
