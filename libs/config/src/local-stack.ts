import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isRunning } from './process-lifecycle';

/**
 * Written by the local stack's launcher (`npm start`) while it runs, so operator tools can find
 * its servers; removed when it stops.
 */
export const LOCAL_STACK_FILE = resolve('.data', 'stack.json');

/** What the stack file holds: the launcher's process id and the settings of its servers. */
export interface LocalStackState {
  pid: number;
  env: Record<string, string>;
}

/**
 * The settings in a stack file's text, or nothing when the file is not one or the launcher that
 * wrote it is gone (it was killed outright and left the file behind).
 */
export function parseLocalStack(text: string, running: (pid: number) => boolean = isRunning): Record<string, string> {
  try {
    const state = JSON.parse(text) as Partial<LocalStackState>;
    if (typeof state.pid !== 'number' || typeof state.env !== 'object' || state.env === null) return {};
    return running(state.pid) ? state.env : {};
  } catch {
    return {};
  }
}

/** The connection settings of a running local stack, or nothing when none is running. */
export function localStackEnv(): Record<string, string> {
  try {
    return parseLocalStack(readFileSync(LOCAL_STACK_FILE, 'utf8'));
  } catch {
    return {};
  }
}

/** The process id of the launcher of the local stack running from this folder, if one runs. */
export function runningLauncher(): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(LOCAL_STACK_FILE, 'utf8')) as Partial<LocalStackState>;
    return typeof pid === 'number' && isRunning(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For a process the local stack started (over an IPC channel): stops it as SIGTERM does when
 * the launcher goes away without stopping it, so that nothing it started outlives it.
 */
export function stopWithLauncher(): void {
  if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
