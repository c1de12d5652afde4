import type { ChildProcess } from 'node:child_process';
import { writeSync } from 'node:fs';
import { EX_CONFIG } from '@docconv/config';
import { spawnInOwnGroup, stopChild } from './child-processes';

/** A process that ran this long before it exited starts again at once. */
const STABLE_MS = 60_000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * One of the stack's processes (the API, a worker), kept running: when it exits without being
 * asked to (a crash, an out-of-memory kill, a SIGKILL), it is started again after a delay that
 * doubles with each quick failure (0.5 s up to 30 s) and starts over once it has run a minute.
 * A configuration error is not retried: `onGiveUp` is called instead.
 */
export class Supervised {
  private child?: ChildProcess;
  private stopping = false;
  private failures = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly say: (line: string) => void,
    private readonly onGiveUp: (code: number) => void,
    /** Where its output goes: a log file's descriptor. */
    private readonly output: number,
  ) {}

  /**
   * Starts the process in its own process group (a Ctrl-C at the terminal reaches only the
   * launcher, which stops it in turn) with an IPC channel, whose end tells it that the launcher is gone.
   */
  start(): void {
    const started = Date.now();
    const child = spawnInOwnGroup(process.execPath, [this.entry], {
      env: this.env,
      stdio: ['ignore', this.output, 'pipe', 'ipc'],
    });
    this.child = child;
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      writeSync(this.output, chunk);
      errors = (errors + chunk.toString()).slice(-4000);
    });
    child.on('error', (error) => this.say(`could not start the ${this.name}: ${error.message}`));
    // 'close', not 'exit': its last error output has been read by then
    child.on('close', (code, signal) => {
      if (this.stopping) return;
      if (code === EX_CONFIG) {
        for (const line of errors.trim().split('\n')) this.say(line);
        this.say(`the ${this.name} cannot start with this configuration; stopping`);
        this.onGiveUp(1);
        return;
      }
      this.failures = Date.now() - started >= STABLE_MS ? 1 : this.failures + 1;
      const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (this.failures - 1));
      this.say(
        `the ${this.name} stopped (${signal ?? `exit code ${code}`}); starting it again in ${(delay / 1000).toFixed(1)} s`,
      );
      this.timer = setTimeout(() => this.start(), delay);
    });
  }

  /** The running process's id, if one runs. */
  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    if (this.child) await stopChild(this.child, 15_000);
  }
}
