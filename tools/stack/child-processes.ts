/**
 * The processes of the local stack: a free port to give one, waiting until it listens, starting
 * it in a process group of its own and stopping it with everything it left behind.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

/** A port nothing listens on now, chosen by the system. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Resolves once something accepts connections on `port` (10 s at most); rejects if `child` exits first. */
export async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} did not open port ${port} within 10 s`);
}

/**
 * Sends SIGTERM, waits, then SIGKILL; resolves once the process is gone. For a process started
 * in its own process group (spawnInOwnGroup), then also stops what it started itself and left
 * behind (e.g. the worker's engine servers, still loading their models): SIGTERM to the group
 * once it has had 2 s to empty, SIGKILL 3 s later.
 */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((done) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      child.kill('SIGTERM');
    });
  }
  const group = child.pid;
  if (group === undefined || !groupLeaders.has(child)) return;
  for (const [signal, waitMs] of [
    [undefined, 2_000],
    ['SIGTERM', 3_000],
    ['SIGKILL', 2_000],
  ] as const) {
    if (signal) signalGroup(group, signal);
    const deadline = Date.now() + waitMs;
    while (groupRuns(group) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (!groupRuns(group)) return;
  }
}

/**
 * util-linux's `setpriv`, which starts a program that gets SIGTERM when its parent dies, so that
 * the servers do not outlive a launcher killed outright (SIGKILL), redis-server included (the
 * Node children also notice that their IPC channel closed).
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/** Children spawned here lead a process group of their own (`detached`). */
const groupLeaders = new WeakSet<ChildProcess>();

/**
 * Starts a server or an app of the stack in a process group of its own: a Ctrl-C at the terminal
 * reaches only the launcher, which stops it in its turn (stopChild).
 */
export function spawnInOwnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const [program, argv] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'TERM', '--', command, ...args]] : [command, args];
  const child = spawn(program, argv, { ...options, detached: true });
  groupLeaders.add(child);
  return child;
}

function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
const groupRuns = (group: number): boolean => signalGroup(group, 0);
