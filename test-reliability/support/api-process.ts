import type { ChildProcess } from 'node:child_process';

export { spawnApi, type ApiProcess } from '@docconv/testing';

/** Whether the process has exited or been killed. */
export function isGone(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}
