import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliFailure } from './terminal';

/** What `docconv login` saves: where the service is and this machine's API key there, with its id. */
export interface SavedConfig {
  url: string;
  apiKey: string;
  /** The key's id, so the next log-in can tell it among the account's keys (absent in older files). */
  keyId?: string;
}

/** The service and key a command talks to. */
export interface Connection {
  url: string;
  apiKey: string;
}

/** Where the service runs when nothing says otherwise: the API's default port on this machine. */
export const DEFAULT_URL = 'http://localhost:3000';

/** `$XDG_CONFIG_HOME/docconv/config.json`, or `~/.config/docconv/config.json` without XDG_CONFIG_HOME. */
export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'docconv', 'config.json');
}

/** The saved configuration, or undefined when there is none yet; a damaged file is reported, not ignored. */
export async function readConfig(env: NodeJS.ProcessEnv): Promise<SavedConfig | undefined> {
  const path = configPath(env);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = parseConfig(text);
  if (!parsed) {
    throw new CliFailure(
      `${path} is not a docconv configuration.`,
      'Run `docconv login --email <you@example.com>` to rewrite it.',
    );
  }
  return parsed;
}

function parseConfig(text: string): SavedConfig | undefined {
  try {
    const value = JSON.parse(text) as Partial<SavedConfig>;
    if (typeof value.url === 'string' && typeof value.apiKey === 'string')
      return {
        url: value.url,
        apiKey: value.apiKey,
        ...(typeof value.keyId === 'string' ? { keyId: value.keyId } : {}),
      };
  } catch {
    // reported by the caller with the file's path
  }
  return undefined;
}

/** Saves the configuration readable by its owner only (0600), since it holds an API key. */
export async function writeConfig(env: NodeJS.ProcessEnv, config: SavedConfig): Promise<string> {
  const path = configPath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600); // `mode` applies only when the file is created
  return path;
}

/**
 * The service and key to use: DOCCONV_URL and DOCCONV_API_KEY first, else the saved
 * configuration, each on its own (an environment key works with a saved URL).
 */
export async function resolveConnection(env: NodeJS.ProcessEnv): Promise<Connection> {
  const fromEnv = { url: env.DOCCONV_URL?.trim(), apiKey: env.DOCCONV_API_KEY?.trim() };
  const saved = fromEnv.url && fromEnv.apiKey ? undefined : await readConfig(env);
  const apiKey = fromEnv.apiKey || saved?.apiKey;
  if (!apiKey) {
    throw new CliFailure(
      'No API key: you are not logged in.',
      'Run `docconv login --email <you@example.com>`, or set DOCCONV_API_KEY (and DOCCONV_URL).',
    );
  }
  return { url: fromEnv.url || saved?.url || DEFAULT_URL, apiKey };
}
