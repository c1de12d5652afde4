import { parseArgs } from 'node:util';
import { hostname } from 'node:os';
import {
  createKey,
  deactivateKey,
  listKeys,
  login,
  logout,
  signup,
  type Credentials,
  type KeyInfo,
  type Scope,
  type Session,
} from '../../auth';
import { createClient, serviceRoot, type DocconvClient } from '../../client';
import { DocconvError } from '../../errors';
import { parseCommandLine } from '../args';
import { DEFAULT_URL, readConfig, writeConfig, type SavedConfig } from '../config';
import { askHidden } from '../prompt';
import { UsageError, type Terminal } from '../terminal';

export const LOGIN_USAGE = `Usage: docconv login --email <email> [--password <password>] [--signup] [--url <url>] [--name <name>]

Logs in and saves this machine's API key with the service URL in
$XDG_CONFIG_HOME/docconv/config.json (~/.config/docconv/config.json), readable by you only.
The saved key is kept while it works for the account; else a new key is made and the
machine's earlier one deactivated, so each machine has one active key.

Options:
  --email <email>        the account's email
  --password <password>  else DOCCONV_PASSWORD, else asked for on the terminal
  --signup               create the account first
  --url <url>            the service (default: DOCCONV_URL, the saved URL, or ${DEFAULT_URL})
  --name <name>          the machine's key name (default: docconv CLI on <host>); other
                         active keys of that name are deactivated`;

/** The password from the flag, DOCCONV_PASSWORD, or the terminal; never echoed. */
async function readPassword(given: string | undefined, term: Terminal): Promise<string> {
  const password = given ?? term.env.DOCCONV_PASSWORD;
  if (password) return password;
  if (!term.stdin.isTTY) {
    throw new UsageError('no password: pass --password, set DOCCONV_PASSWORD, or run in a terminal', LOGIN_USAGE);
  }
  return askHidden('Password: ', term.stdin, term.stderr);
}

/** The scopes every command needs; a saved key without them is replaced. */
const NEEDED_SCOPES: readonly Scope[] = ['jobs:read', 'jobs:write'];

/** This machine's key after a log-in: kept from the saved configuration, or made now. */
interface MachineKey {
  apiKey: string;
  keyId: string;
  prefix: string;
  kept: boolean;
  /** The machine's earlier keys deactivated by this log-in. */
  deactivated: KeyInfo[];
}

/** `docconv login`: session → this machine's key (kept or made, earlier ones deactivated) → saved configuration → session ended. */
export async function loginCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(LOGIN_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        signup: { type: 'boolean' },
        url: { type: 'string' },
        name: { type: 'string' },
      },
    }),
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`, LOGIN_USAGE);
  if (!values.email) throw new UsageError('--email is required', LOGIN_USAGE);

  // A damaged configuration does not stop a login: the login rewrites it.
  const saved = await readConfig(term.env).catch(() => undefined);
  const url = values.url || term.env.DOCCONV_URL || saved?.url;
  const client = createClient({ baseUrl: url ?? DEFAULT_URL });
  const credentials: Credentials = { email: values.email, password: await readPassword(values.password, term) };
  const session = values.signup ? await signup(client, credentials) : await login(client, credentials);
  let key: MachineKey;
  let path: string;
  try {
    // Only a key saved for this very service can be this machine's key here.
    const savedHere = saved && sameService(saved.url, client.baseUrl) ? saved : undefined;
    const name = values.name ?? `docconv CLI on ${hostname()}`;
    key = await machineKey(client, session, savedHere, name, term);
    path = await writeConfig(term.env, { url: client.baseUrl, apiKey: key.apiKey, keyId: key.keyId });
  } finally {
    // The session was only for the key: it ends here rather than lingering until it expires.
    await logout(client, session).catch(() =>
      term.stderr.write('Note: the log-in session could not be ended; it expires by itself.\n'),
    );
  }

  term.stdout.write(
    `${values.signup ? 'Created the account and logged in' : 'Logged in'} to ${client.baseUrl} as ${values.email}.\n` +
      (key.kept
        ? `Kept this machine's API key ${key.prefix}…, saved in ${path}.\n`
        : `API key ${key.prefix}… saved to ${path}.\n`) +
      key.deactivated
        .map((old) => `Deactivated this machine's earlier API key ${old.prefix}… (${old.name}).\n`)
        .join(''),
  );
  if (term.env.DOCCONV_API_KEY) {
    term.stderr.write('Note: DOCCONV_API_KEY is set and takes precedence over the saved key.\n');
  }
}

/**
 * One active key per machine and account: the saved key is kept while it works for this account
 * with the scopes the commands need; else a key is made, and the machine's earlier keys (the saved
 * one, found by its id, and any named like the machine) are deactivated. Those are deactivated
 * when the saved key is kept too, so keys left by older versions of the CLI go as well.
 */
async function machineKey(
  client: DocconvClient,
  session: Session,
  saved: SavedConfig | undefined,
  name: string,
  term: Terminal,
): Promise<MachineKey> {
  const keys = await listKeys(client, session);
  const savedKey = saved ? await keyBehind(client, saved.apiKey) : undefined;
  const savedId = savedKey?.id ?? saved?.keyId;
  const usable = savedKey && NEEDED_SCOPES.every((scope) => savedKey.scopes.includes(scope));
  const kept = usable ? keys.find((k) => k.is_active && k.id === savedKey.id) : undefined;
  let key: MachineKey;
  if (saved && kept) {
    key = { apiKey: saved.apiKey, keyId: kept.id, prefix: kept.prefix, kept: true, deactivated: [] };
  } else {
    const made = await createKey(client, session, { name });
    key = { apiKey: made.key, keyId: made.id, prefix: made.prefix, kept: false, deactivated: [] };
  }

  const earlier = keys.filter((k) => k.is_active && k.id !== key.keyId && (k.id === savedId || k.name === name));
  for (const old of earlier) {
    try {
      await deactivateKey(client, session, old.id);
      key.deactivated.push(old);
    } catch (error) {
      const reason = error instanceof DocconvError ? error.detail : String(error);
      term.stderr.write(
        `Note: this machine's earlier API key ${old.prefix}… could not be deactivated (${reason}); deactivate it on the web console's Keys page.\n`,
      );
    }
  }
  return key;
}

/** The id and scopes of the key a saved secret stands for, or undefined when the service no longer accepts it. */
async function keyBehind(client: DocconvClient, apiKey: string): Promise<{ id: string; scopes: string[] } | undefined> {
  try {
    const account = await createClient({ baseUrl: client.baseUrl, apiKey }).getAccount();
    return account.api_key ?? undefined;
  } catch (error) {
    if (error instanceof DocconvError && (error.status === 401 || error.status === 403)) return undefined;
    throw error;
  }
}

/** Whether a saved URL names the service at `root` (a saved URL that is not one names none). */
function sameService(url: string, root: string): boolean {
  try {
    return serviceRoot(url) === root;
  } catch {
    return false;
  }
}
