import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prettyFactory } from 'pino-pretty';
import { PRETTY_OPTIONS } from '@docconv/logging';

/** Where `start` keeps the logs of the API, the worker and its servers: this start's, and the one before. */
export const LOG_DIR = resolve('.data', 'logs');
export const LOG_FILE = join(LOG_DIR, 'docconv.log');

/** Opens a fresh log file for a start (the previous one becomes `docconv.log.1`); returns its descriptor. */
export function openFreshLog(): number {
  mkdirSync(LOG_DIR, { recursive: true });
  if (existsSync(LOG_FILE)) renameSync(LOG_FILE, `${LOG_FILE}.1`);
  return openSync(LOG_FILE, 'a', 0o600);
}

/**
 * Prints the lines written to `file` from `offset` on, as they come, pretty when they are JSON
 * log lines and as they are otherwise, until `stop()`. A file that is replaced (a new start) is
 * followed from its beginning.
 */
export function followLog(file: string, offset: number, write: (text: string) => void): { stop(): void } {
  const pretty = prettyFactory({ ...PRETTY_OPTIONS, colorize: process.stdout.isTTY === true });
  let position = offset;
  let pending = '';
  let fd: number | undefined;
  let inode: number | undefined;
  const buffer = Buffer.alloc(64 * 1024);
  const poll = (): void => {
    if (fd === undefined) {
      if (!existsSync(file)) return;
      fd = openSync(file, 'r');
      inode = fstatSync(fd).ino;
    }
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
      pending += buffer.subarray(0, read).toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) write(line.startsWith('{') ? pretty(line) : `${line}\n`);
    }
    if (existsSync(file) && (fstatSync(fd).size < position || inodeOf(file) !== inode)) {
      closeSync(fd);
      fd = undefined;
      position = 0;
      pending = '';
    }
  };
  const timer = setInterval(poll, 200);
  poll();
  return {
    stop: () => {
      clearInterval(timer);
      poll();
      if (fd !== undefined) closeSync(fd);
    },
  };
}

function inodeOf(file: string): number | undefined {
  try {
    return statSync(file).ino;
  } catch {
    return undefined;
  }
}

/** `npm run logs`: the current log file pretty-printed from its beginning, then followed until Ctrl-C. */
if (require.main === module) {
  if (!existsSync(LOG_FILE)) {
    process.stderr.write(`[docconv] There are no logs in ${LOG_FILE} yet: ./scripts/start.sh writes them there.\n`);
  }
  followLog(LOG_FILE, 0, (text) => process.stdout.write(text));
}
