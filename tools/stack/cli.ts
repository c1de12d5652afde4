import { existsSync, writeSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { writeFile, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { LOCAL_STACK_FILE, runningLauncher } from '@docconv/config';
import { staleSource } from './build-freshness';
import { followLog, LOG_FILE, openFreshLog } from './logs';
import { choosePort, isPortFree } from './port';
import { stopChild } from './child-processes';
import { DATA_DIR, ensureServices, type RunningServices } from './services';
import { Supervised } from './supervisor';

/**
 * `start [--logs]`: the API (port 3000, the next free one when 3000 is busy, or PORT) and one
 *          worker, on the servers the environment names or on the embedded default; either is
 *          started again if it stops. Prints where to find everything once the API is ready; the
 *          detailed logs go to .data/logs/docconv.log (`--logs` also shows them here). Any of
 *          SIGINT (Ctrl-C), SIGTERM and SIGHUP stops everything it started.
 * `run -- <command…>`: the same servers (ephemeral when embedded) for one command, e.g. the
 *          test suite; its exit code is passed on.
 */
const say = (line: string): void => {
  process.stderr.write(`[docconv] ${line}\n`);
};

const DIST = resolve(__dirname, '..', '..');
const READY_PATH = '/api/v1/health/ready';
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/**
 * Resolves with the first of SIGINT, SIGTERM and SIGHUP this process receives. Its handlers stay
 * installed, so a second signal does not cut the stop short.
 */
function firstSignal(): Promise<(typeof SIGNALS)[number]> {
  return new Promise((received) => {
    for (const signal of SIGNALS) process.on(signal, () => received(signal));
  });
}

/**
 * The engines' Python that `scripts/setup.sh` installs (EasyOCR, speech), for the local stack's
 * worker unless ENGINES_PYTHON says otherwise. Test runs set it only where a test needs it.
 */
function enginesEnv(): Record<string, string> {
  const python = resolve(DIST, '..', '.venv-engines', 'bin', 'python');
  return process.env.ENGINES_PYTHON === undefined && existsSync(python) ? { ENGINES_PYTHON: python } : {};
}

/** The API's port, or the one line that says why there is none. */
async function apiPort(): Promise<{ port: number; movedFrom?: number } | { refusal: string }> {
  const choice = await choosePort(process.env.PORT, isPortFree);
  if ('invalid' in choice) return { refusal: `PORT must be a port number from 1 to 65535, not "${choice.invalid}".` };
  if ('busy' in choice) {
    return {
      refusal:
        choice.reason === 'PORT'
          ? `Port ${choice.busy} (PORT) is already in use: stop what listens there, or choose another port, e.g. PORT=${choice.busy + 1} ./scripts/start.sh`
          : `Ports ${choice.busy} to ${choice.busy + 19} are all in use: set PORT to a free port, e.g. PORT=8080 ./scripts/start.sh`,
    };
  }
  return choice;
}

/** Whether the API on `port` answers its readiness check with 200 (node:http: fetch refuses some ports, e.g. 22). */
function answersReady(port: number): Promise<boolean> {
  return new Promise((done) => {
    const request = get({ host: '127.0.0.1', port, path: READY_PATH, timeout: 2_000 }, (response) => {
      response.resume();
      done(response.statusCode === 200);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => done(false));
  });
}

/** Resolves once the API answers its readiness check on `port`, or when `gaveUp()` says to stop waiting. */
async function untilReady(port: number, gaveUp: () => boolean): Promise<boolean> {
  const started = Date.now();
  let told = false;
  while (!gaveUp()) {
    const ok = await answersReady(port);
    if (ok) return true;
    if (!told && Date.now() - started > 60_000) {
      told = true;
      say(`Still starting: \`npm run logs\` shows what the API and the worker are doing.`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

/** 125 s → "2m05s", 9.4 s → "9s". */
function duration(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

/**
 * When the start began: `./scripts/start.sh` passes the moment it began (DOCCONV_START_BEGAN, ms
 * since the epoch), so the banner counts its setup too; `npm start` alone counts from this process.
 */
function startBegan(): number {
  const given = Number(process.env.DOCCONV_START_BEGAN);
  return Number.isFinite(given) && given > 0 ? given : Date.now() - process.uptime() * 1000;
}

function banner(port: number, movedFrom: number | undefined, services: RunningServices, showLogs: boolean): string {
  const base = `http://localhost:${port}`;
  const logs = relative(process.cwd(), LOG_FILE);
  const lines = [
    `docconv is ready on ${base}/ (started in ${duration(Date.now() - startBegan())})`,
    ...(movedFrom ? [`  Port      ${movedFrom} is in use, so ${port} it is (set PORT to choose)`] : []),
    `  Console   ${base}/`,
    `  API docs  ${base}/api/docs`,
    showLogs
      ? `  Logs      below, and in ${logs}`
      : `  Logs      ${logs}: \`npm run logs\` follows them; \`./scripts/start.sh --logs\` shows them here`,
    ...(services.databaseDir && !services.databaseDir.startsWith(`${DATA_DIR}/`)
      ? [`  Database  ${services.databaseDir}`]
      : []),
    `  Stop      Ctrl-C (or kill ${process.pid}): stops the API, the worker and the servers it started`,
  ];
  return `\n${lines.join('\n')}\n\n`;
}

async function start(showLogs: boolean): Promise<number> {
  const signalled = firstSignal();
  const running = runningLauncher();
  if (running !== undefined) {
    say(
      `docconv already runs from this folder (launcher pid ${running}): stop it first (Ctrl-C where it runs, or kill ${running}).`,
    );
    return 1;
  }
  const chosen = await apiPort();
  if ('refusal' in chosen) {
    say(chosen.refusal);
    return 1;
  }
  const { port, movedFrom } = chosen;
  const log = openFreshLog();
  const follower = showLogs ? followLog(LOG_FILE, 0, (text) => process.stdout.write(text)) : undefined;
  // the launcher's and its servers' lines, in the shape of the API's and the worker's (pino's JSON)
  const toLog = (line: string): void =>
    void writeSync(log, `${JSON.stringify({ level: 30, time: new Date().toISOString(), name: 'stack', msg: line })}\n`);
  const starting = ensureServices({ ephemeral: false, say, log: toLog });
  const first = await Promise.race([starting, signalled]);
  if (typeof first === 'string') {
    say(`${first} received: stopping`);
    await (await starting.catch(() => undefined))?.stop();
    follower?.stop();
    return 128 + SIGNAL_NUMBERS[first];
  }
  const services = first;
  // The address it is reached at on this machine is the one links start with, unless PUBLIC_BASE_URL names another.
  const env = {
    ...process.env,
    ...services.env,
    ...enginesEnv(),
    PORT: String(port),
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || `http://localhost:${port}`,
  };
  await writeFile(LOCAL_STACK_FILE, JSON.stringify({ pid: process.pid, env: services.env }, null, 2), { mode: 0o600 });
  let gaveUp: (code: number) => void = () => undefined;
  const givenUp = new Promise<number>((done) => (gaveUp = done));
  let stopping = false;
  const processes = [
    new Supervised('API', join(DIST, 'apps/api/src/main.js'), env, say, (code) => gaveUp(code), log),
    new Supervised('worker', join(DIST, 'apps/worker/src/main.js'), env, say, (code) => gaveUp(code), log),
  ];
  for (const p of processes) p.start();
  void untilReady(port, () => stopping).then((ready) => {
    if (ready) process.stdout.write(banner(port, movedFrom, services, showLogs));
  });
  const code = await Promise.race([
    givenUp,
    signalled.then((signal) => {
      say(`${signal} received: stopping`);
      return 128 + SIGNAL_NUMBERS[signal];
    }),
  ]);
  stopping = true;
  await Promise.all(processes.map((p) => p.stop()));
  await rm(LOCAL_STACK_FILE, { force: true });
  await services.stop();
  follower?.stop();
  say('Stopped.');
  return code;
}

async function run(command: string[]): Promise<number> {
  if (command.length === 0) throw new Error('usage: stack run -- <command> [args…]');
  const signalled = firstSignal();
  const starting = ensureServices({ ephemeral: true, say });
  const first = await Promise.race([starting, signalled]);
  if (typeof first === 'string') {
    await (await starting.catch(() => undefined))?.stop();
    return 128 + SIGNAL_NUMBERS[first];
  }
  const services = first;
  const child = spawn(command[0], command.slice(1), { env: { ...process.env, ...services.env }, stdio: 'inherit' });
  const code = await Promise.race([
    new Promise<number>((done) => {
      child.on('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0)));
      child.on('error', (error) => {
        say(`could not start ${command[0]}: ${error.message}`);
        done(1);
      });
    }),
    signalled.then((signal) => {
      say(`${signal} received: stopping`);
      return 128 + SIGNAL_NUMBERS[signal];
    }),
  ]);
  await stopChild(child, 15_000);
  await services.stop();
  return code;
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
  // A terminal or pipe that went away (a Ctrl-C that also ended `| tee`) must not stop the stop.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  const [command, ...rest] = process.argv.slice(2);
  refuseStaleBuild();
  let code: number;
  if (command === 'start' && rest.every((arg) => arg === '--logs')) code = await start(rest.includes('--logs'));
  else if (command === 'run') code = await run(rest[0] === '--' ? rest.slice(1) : rest);
  else throw new Error('usage: stack start [--logs] | stack run -- <command…>');
  process.exit(code);
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
