import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@docconv/testing';

/**
 * `node dist/tools/stack/cli.js start` as a person runs it, in a working folder of its own (its
 * `.data` there, not the repository's): its own embedded PostgreSQL and redis-server, the API and
 * a worker; the banner once the API is ready; every process it started gone after a signal.
 */
const LAUNCHER = join(REPO_ROOT, 'dist', 'tools', 'stack', 'cli.js');

interface Launch {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

/** The environment of a fresh shell: none of the test run's servers, secrets or folders. */
function freshEnv(port: number): NodeJS.ProcessEnv {
  const { PATH, HOME, LANG, TMPDIR } = process.env;
  return { PATH, HOME, LANG, TMPDIR, PORT: String(port), WORKER_CONCURRENCY: '1' };
}

function launch(workDir: string, env: NodeJS.ProcessEnv): Launch {
  const child = spawn(process.execPath, [LAUNCHER, 'start'], { cwd: workDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Launch = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((done) => child.once('close', (code) => done(code))),
  };
  child.stdout?.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

/** Resolves once the launcher has printed its banner; rejects, with what it said, if it exits first. */
function untilBanner(run: Launch): Promise<void> {
  return new Promise((ready, reject) => {
    const check = (): void => {
      if (run.stdout.includes('docconv is ready on')) ready();
    };
    run.child.stdout?.on('data', check);
    check();
    void run.exited.then((code) => reject(new Error(`the launcher exited (${code}) before its banner: ${run.stderr}`)));
  });
}

function status(port: number, path: string): Promise<number | undefined> {
  return new Promise((done, reject) => {
    get({ host: '127.0.0.1', port, path }, (response) => {
      response.resume();
      done(response.statusCode);
    }).once('error', reject);
  });
}

/** Every live process under `pid` (children, theirs, …) with its command name, from /proc. */
function descendants(pid: number): Map<number, string> {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z') continue;
    names.set(Number(entry), name);
    children.set(Number(ppid), [...(children.get(Number(ppid)) ?? []), Number(entry)]);
  }
  const found = new Map<number, string>();
  const visit = (parent: number): void => {
    for (const child of children.get(parent) ?? []) {
      found.set(child, names.get(child) ?? '?');
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Those of `processes` that still run, as `<pid> <name>`. */
function alive(processes: Map<number, string>): string[] {
  return [...processes]
    .filter(([pid]) => {
      try {
        return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    })
    .map(([pid, name]) => `${pid} ${name}`);
}

function freePort(): Promise<number> {
  return new Promise((done, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.once('error', reject);
  });
}

describe('the local stack launcher', () => {
  let workDir: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'docconv-launcher-'));
    await chmod(workDir, 0o755); // as root, the postgres user keeps the database in .data here
  });
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'prints its banner once the API is ready, and %s stops every process it started',
    async (signal) => {
      const port = await freePort();
      // as ./scripts/start.sh passes it, here as if its setup had taken two minutes
      const began = Date.now() - 120_000;
      const run = launch(workDir, { ...freshEnv(port), DOCCONV_START_BEGAN: String(began) });
      try {
        await untilBanner(run);
      } catch (error) {
        run.child.kill('SIGKILL');
        throw error;
      }
      expect(run.stdout).toContain(`docconv is ready on http://localhost:${port}/`);
      const took = /\(started in (\d+)m(\d\d)s\)/.exec(run.stdout);
      expect(took).not.toBeNull();
      const seconds = Number(took?.[1]) * 60 + Number(took?.[2]);
      expect(seconds).toBeGreaterThanOrEqual(120);
      expect(seconds).toBeLessThanOrEqual(Math.ceil((Date.now() - began) / 1000));
      expect(run.stdout).toContain(`http://localhost:${port}/api/docs`);
      expect(run.stdout).toContain('.data/logs/docconv.log');
      expect(run.stdout).toMatch(/Ctrl-C/);
      expect(await status(port, '/api/v1/health/ready')).toBe(200);

      const stackFile = join(workDir, '.data', 'stack.json');
      const state = JSON.parse(await readFile(stackFile, 'utf8')) as { pid: number; env: Record<string, string> };
      expect(state.pid).toBe(run.child.pid);
      expect(state.env.DATABASE_URL).toMatch(/^postgres:\/\//);

      const started = descendants(run.child.pid!);
      const names = [...started.values()];
      expect(names).toContain('redis-server');
      expect(names).toContain('postgres');
      expect(names.filter((name) => name === 'node').length).toBeGreaterThanOrEqual(3); // API, worker, PostgreSQL's parent
      // the API's and the worker's own lines go to the log file, not the terminal
      expect(readFileSync(join(workDir, '.data', 'logs', 'docconv.log'), 'utf8')).toMatch(/"name":"worker"/);
      expect(run.stderr).not.toMatch(/"level":/);

      run.child.kill(signal);
      expect(await run.exited).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(alive(started)).toEqual([]);
      expect(existsSync(stackFile)).toBe(false);
    },
    180_000,
  );

  describe('with PORT set to a busy port', () => {
    let busy: Server;
    beforeAll(() => new Promise<void>((done) => (busy = createServer().listen(0, '0.0.0.0', () => done()))));
    afterAll(() => new Promise<void>((done) => busy.close(() => done())));

    it('says so in one line and what to do, exits non-zero and starts nothing', async () => {
      const port = (busy.address() as { port: number }).port;
      const run = launch(workDir, freshEnv(port));
      expect(await run.exited).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `[docconv] Port ${port} (PORT) is already in use: stop what listens there, or choose another port, e.g. PORT=${port + 1} ./scripts/start.sh`,
      ]);
      expect(run.stdout).toBe('');
      expect(existsSync(join(workDir, '.data', 'stack.json'))).toBe(false);
    });
  });
});
