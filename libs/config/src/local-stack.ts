import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Written by `npm start` while the embedded default runs, so operator tools can find it. */
export const LOCAL_STACK_FILE = resolve('.data', 'stack.json');

/** The connection settings of a running local stack, or nothing when none is running. */
export function localStackEnv(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(LOCAL_STACK_FILE, 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}
