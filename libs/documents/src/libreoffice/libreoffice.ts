import { DomainError } from '@docconv/contracts';
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OfficeSlots } from './office-slots';

/** The OOXML formats LibreOffice writes for us; our own readers take them from there. */
export type OfficeTarget = 'docx' | 'xlsx' | 'pptx';

export interface ConvertOptions {
  /** How long one conversion may run before its processes are killed; 120 s when absent. */
  deadlineMs?: number;
  /**
   * The extension the input is copied under (`doc`, `odt`…), which tells LibreOffice's type
   * detection where to start. When absent it is taken from `displayName` if it is a plain
   * extension; LibreOffice reads the content either way.
   */
  extension?: string;
  /** Where the run's temporary folder is made; the system's temporary folder when absent. */
  workFolder?: string;
}

export interface Converted {
  /** The converted file, inside the run's own temporary folder. */
  path: string;
  /** Removes the run's temporary folder (the converted file with it). */
  dispose: () => Promise<void>;
}

/** The export filter of each target: Word, Calc and Impress's OOXML writers. */
const FILTERS: Record<OfficeTarget, string> = {
  docx: 'docx:MS Word 2007 XML',
  xlsx: 'xlsx:Calc MS Excel 2007 XML',
  pptx: 'pptx:Impress MS PowerPoint 2007 XML',
};

const DEFAULT_DEADLINE_MS = 120_000;
/** Office processes at once per worker process: each takes a core and 200–400 MB while it runs. */
const CONCURRENCY = 2;
/** What a run may print before the rest is dropped: enough for its error lines. */
const MAX_OUTPUT_CHARS = 8 * 1024;
/** The kill by `timeout(1)` follows the in-process deadline by this much; it is only the fallback. */
const FALLBACK_KILL_GRACE_S = 5;

/**
 * The user profile each run starts from. Macros never run (highest security level, execution
 * disabled), linked content is never refreshed (Writer `0` is never; Calc counts differently and
 * `1` is its never), linked images are not fetched for documents outside trusted locations
 * (every upload), and every internet protocol goes through a proxy that does not exist, so a
 * document that still asks for a remote resource gets a refused connection.
 */
export const PROFILE_REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${[
  item('/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', 3),
  item('/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', true),
  item('/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', true),
  item('/org.openoffice.Office.Writer/Content/Update', 'Link', 0),
  item('/org.openoffice.Office.Calc/Content/Update', 'Link', 1),
  item('/org.openoffice.Office.Common/Misc', 'UseOpenCL', false),
  item('/org.openoffice.Inet/Settings', 'ooInetProxyType', 2),
  item('/org.openoffice.Inet/Settings', 'ooInetNoProxy', ''),
  ...['HTTP', 'HTTPS', 'FTP'].flatMap((protocol) => [
    item('/org.openoffice.Inet/Settings', `ooInet${protocol}ProxyName`, '127.0.0.1'),
    item('/org.openoffice.Inet/Settings', `ooInet${protocol}ProxyPort`, 9),
  ]),
].join('\n')}
</oor:items>
`;

/** One `registrymodifications.xcu` entry. */
function item(path: string, name: string, value: string | number | boolean): string {
  return `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`;
}

/** Environment of every run: proxies pointed at a closed port, and nothing of ours that LibreOffice could pick up. */
function runEnvironment(home: string): NodeJS.ProcessEnv {
  const nowhere = 'http://127.0.0.1:9';
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    TMPDIR: home,
    http_proxy: nowhere,
    https_proxy: nowhere,
    ftp_proxy: nowhere,
    HTTP_PROXY: nowhere,
    HTTPS_PROXY: nowhere,
    FTP_PROXY: nowhere,
    no_proxy: '',
  };
}

/** Office processes at once on this host, across the worker's threads and processes. */
const slots = new OfficeSlots(() => join(tmpdir(), 'docconv-lo-slots'), CONCURRENCY);

/** The first executable called `name` on PATH, or undefined. */
async function onPath(name: string): Promise<string | undefined> {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** The extension the input copy gets: the given one, else the display name's when it is a plain one. */
function inputExtension(displayName: string, given?: string): string {
  const candidate = (given ?? extname(displayName).slice(1)).toLowerCase();
  return /^[a-z0-9]{1,8}$/.test(candidate) ? `.${candidate}` : '';
}

/**
 * Converts an office document to OOXML with LibreOffice, headless. Each run has its own
 * temporary folder holding a fresh user profile (macros off, links never updated, no network:
 * see `PROFILE_REGISTRY`), a copy of the input under a fixed name (the user's file name never
 * reaches the command line) and the output. At most `CONCURRENCY` runs go at once per temporary
 * folder (one per worker process, shared by its threads); the others wait. A run past its
 * deadline has its whole process group killed. The caller reads `path` and then calls `dispose`;
 * on failure the folder is already gone.
 */
export async function convertWithLibreOffice(
  input: string,
  target: OfficeTarget,
  displayName: string,
  options: ConvertOptions = {},
): Promise<Converted> {
  const soffice = await onPath('soffice');
  if (!soffice) {
    throw new DomainError(
      'engine_unavailable',
      `${displayName} needs LibreOffice to be read, and this worker does not have it installed (no soffice on PATH).`,
    );
  }
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const release = await slots.acquire(deadlineMs + (FALLBACK_KILL_GRACE_S + 10) * 1000);
  try {
    return await convertInFolder(soffice, input, target, displayName, deadlineMs, options);
  } finally {
    await release();
  }
}

/** One run in its own temporary folder, which is removed again when the run fails. */
async function convertInFolder(
  soffice: string,
  input: string,
  target: OfficeTarget,
  displayName: string,
  deadlineMs: number,
  options: ConvertOptions,
): Promise<Converted> {
  const folder = await mkdtemp(join(options.workFolder ?? tmpdir(), 'docconv-lo-'));
  const dispose = (): Promise<void> => rm(folder, { recursive: true, force: true });
  try {
    const source = join(folder, `input${inputExtension(displayName, options.extension)}`);
    const outdir = join(folder, 'out');
    await Promise.all([copyFile(input, source), mkdir(outdir), writeProfile(folder)]);
    const args = [
      `-env:UserInstallation=${pathToFileURL(join(folder, 'profile')).href}`,
      '--headless',
      '--norestore',
      '--nologo',
      '--nodefault',
      '--nolockcheck',
      '--convert-to',
      FILTERS[target],
      '--outdir',
      outdir,
      source,
    ];
    const run = await runOffice(soffice, args, folder, deadlineMs);
    const format = target.toUpperCase();
    if (run.timedOut) {
      throw new DomainError(
        'file_processing_failed',
        `${displayName} took longer than ${Math.max(1, Math.round(deadlineMs / 1000))} s to open in the office reader. Save it as ${format} and upload that, or split it into smaller files.`,
      );
    }
    // LibreOffice reports a document it cannot load on its output and still exits 0: the file decides.
    const output = await convertedFile(outdir, target);
    if (!output) {
      throw new DomainError(
        'file_processing_failed',
        `${displayName} could not be opened by the office reader; it may be damaged or password-protected. Save it as ${format} and upload that.`,
        { cause: new Error(`soffice exited with ${String(run.exit)}: ${run.output.trim()}`) },
      );
    }
    return { path: output, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Seeds the run's user profile with the settings of `PROFILE_REGISTRY`. */
async function writeProfile(folder: string): Promise<void> {
  const user = join(folder, 'profile', 'user');
  await mkdir(user, { recursive: true });
  await writeFile(join(user, 'registrymodifications.xcu'), PROFILE_REGISTRY);
}

/** The converted file LibreOffice wrote, when it wrote a non-empty one. */
async function convertedFile(outdir: string, target: OfficeTarget): Promise<string | undefined> {
  const names = await readdir(outdir);
  const name = names.find((n) => n.toLowerCase().endsWith(`.${target}`));
  if (!name) return undefined;
  const path = join(outdir, name);
  return (await stat(path)).size > 0 ? path : undefined;
}

interface OfficeRun {
  exit: number | string | null;
  timedOut: boolean;
  /** The start of what the run printed, for the log. */
  output: string;
}

/**
 * Runs soffice in a process group of its own and waits for it. At the deadline the whole
 * group (the launcher and `soffice.bin`) is killed; after a normal exit the group is killed too,
 * so nothing the run started outlives it. `timeout(1)` wraps the run when present, so that the
 * group dies even if this process cannot keep its timer (its worker thread ended).
 */
async function runOffice(soffice: string, args: string[], home: string, deadlineMs: number): Promise<OfficeRun> {
  const timeout = await onPath('timeout');
  const fallbackSeconds = String(Math.ceil(deadlineMs / 1000) + FALLBACK_KILL_GRACE_S);
  const [command, commandArgs] = timeout
    ? [timeout, ['-s', 'KILL', fallbackSeconds, soffice, ...args]]
    : [soffice, args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      cwd: home,
      env: runEnvironment(home),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let timedOut = false;
    const collect = (chunk: Buffer): void => {
      if (output.length < MAX_OUTPUT_CHARS) output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, deadlineMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup();
      resolve({ exit: code ?? signal, timedOut, output: output.slice(0, MAX_OUTPUT_CHARS) });
    });
  });
}
