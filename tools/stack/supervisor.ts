import { spawn, type ChildProcess } from 'node:child_process';
import { stopChild } from './services';

/** A configuration error (EX_CONFIG): starting again cannot help. */
const EX_CONFIG = 78;
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
  ) {}

  start(): void {
    const started = Date.now();
    const child = spawn(process.execPath, [this.entry], { env: this.env, stdio: 'inherit' });
    this.child = child;
    child.on('error', (error) => this.say(`could not start the ${this.name}: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (this.stopping) return;
      if (code === EX_CONFIG) {
        this.say(`the ${this.name} cannot start with this configuration (see above); stopping`);
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
