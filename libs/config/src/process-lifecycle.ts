import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** A process's own folder under the scratch root: `<role>-<pid>-<random>`. */
const OWNED = /^[a-z]+-(\d+)-[A-Za-z0-9]{6}$/;

/** Whether a process with this id runs on this machine. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Gives this process a temporary folder of its own under `root` and makes it the process's
 * TMPDIR, so that everything it and its child programs write there (uploads in flight, archives
 * being unpacked, pages being rendered, engines' scratch files) lives in one place. The folder is
 * removed when the process exits; folders that processes killed outright left behind (their
 * process is gone, or it had this process's id before a restart) are removed first. Returns the folder.
 */
export function claimScratchFolder(root: string, role: string): string {
  mkdirSync(root, { recursive: true });
  for (const name of readdirSync(root)) {
    const owner = OWNED.exec(name);
    if (owner && (Number(owner[1]) === process.pid || !isRunning(Number(owner[1])))) {
      rmSync(join(root, name), { recursive: true, force: true });
    }
  }
  const folder = mkdtempSync(join(root, `${role}-${process.pid}-`));
  process.env.TMPDIR = folder;
  process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/**
 * On SIGTERM, SIGINT or SIGHUP: closes the application (its shutdown hooks stop taking work and
 * let what is in flight finish), then exits, so that exit handlers such as the scratch folder's
 * removal run. A second signal exits at once.
 */
export function closeOnSignals(app: { close(): Promise<void> }, onError: (error: unknown) => void): void {
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          onError(error);
          process.exit(1);
        },
      );
    });
  }
}
