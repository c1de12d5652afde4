import { existsSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { LOCAL_STACK_FILE } from '@docconv/config';
import { staleSource } from './build-freshness';
import { ensureServices, stopChild, type RunningServices } from './services';
import { Supervised } from './supervisor';

/**
 * `start`: the API (port 3000 unless PORT says otherwise) and one worker, on the servers the
 *          environment names or on the embedded default; either is started again if it stops.
 *          Ctrl-C stops everything it started.
 * `run -- <command…>`: the same servers (ephemeral when embedded) for one command, e.g. the
 *          test suite; its exit code is passed on.
 */
const say = (line: string): void => {
  process.stderr.write(`[docconv] ${line}\n`);
};

const DIST = resolve(__dirname, '..', '..');

/**
 * The engines' Python that `scripts/setup.sh` installs (EasyOCR, speech), for the local stack's
 * worker unless ENGINES_PYTHON says otherwise. Test runs set it only where a test needs it.
 */
function enginesEnv(): Record<string, string> {
  const python = resolve(DIST, '..', '.venv-engines', 'bin', 'python');
  return process.env.ENGINES_PYTHON === undefined && existsSync(python) ? { ENGINES_PYTHON: python } : {};
}

async function start(): Promise<number> {
  const services = await ensureServices({ ephemeral: false, say });
  const env = { ...process.env, ...services.env, ...enginesEnv() };
  await writeFile(LOCAL_STACK_FILE, JSON.stringify(services.env, null, 2), { mode: 0o600 });
  return new Promise((done) => {
    let stopping = false;
    const stopAll = async (code: number): Promise<void> => {
      if (stopping) return;
      stopping = true;
      await Promise.all(processes.map((p) => p.stop()));
      await rm(LOCAL_STACK_FILE, { force: true });
      await services.stop();
      done(code);
    };
    const processes = [
      new Supervised('API', join(DIST, 'apps/api/src/main.js'), env, say, (code) => void stopAll(code)),
      new Supervised('worker', join(DIST, 'apps/worker/src/main.js'), env, say, (code) => void stopAll(code)),
    ];
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        say(`${signal} received: stopping`);
        void stopAll(130);
      });
    }
    for (const p of processes) p.start();
    say(
      `API on http://localhost:${env.PORT ?? 3000} — docs at /api/docs, readiness at /api/v1/health/ready. ` +
        'A process that stops is started again. Ctrl-C stops everything.',
    );
  });
}

async function run(command: string[]): Promise<number> {
  if (command.length === 0) throw new Error('usage: stack run -- <command> [args…]');
  const services = await ensureServices({ ephemeral: true, say });
  const child = spawn(command[0], command.slice(1), { env: { ...process.env, ...services.env }, stdio: 'inherit' });
  return superviseUntilDone([child], services);
}

/** Waits for a signal or for the child to exit, then stops it and the services. */
function superviseUntilDone(children: ChildProcess[], services: RunningServices): Promise<number> {
  return new Promise((done) => {
    let stopping = false;
    const shutdown = async (code: number): Promise<void> => {
      if (stopping) return;
      stopping = true;
      await Promise.all(children.map((c) => stopChild(c, 15_000)));
      await services.stop();
      done(code);
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        say(`${signal} received: stopping`);
        void shutdown(130);
      });
    }
    for (const child of children) {
      child.on('exit', (code, signal) => void shutdown(code ?? (signal ? 1 : 0)));
      child.on('error', (error) => {
        say(`could not start a process: ${error.message}`);
        void shutdown(1);
      });
    }
  });
}

/** The stack runs what `dist/` holds: a build older than the sources would test or serve old code. */
function refuseStaleBuild(): void {
  const changed = staleSource(resolve(DIST, '..'));
  if (changed) {
    throw new Error(
      `The build in dist/ is older than ${changed}: run \`npm run build\` first, then this command again.`,
    );
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  refuseStaleBuild();
  let code: number;
  if (command === 'start') code = await start();
  else if (command === 'run') code = await run(rest[0] === '--' ? rest.slice(1) : rest);
  else throw new Error('usage: stack start | stack run -- <command…>');
  process.exit(code);
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
