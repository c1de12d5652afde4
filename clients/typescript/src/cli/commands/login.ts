import { parseArgs } from 'node:util';
import { hostname } from 'node:os';
import { createKey, login, logout, signup, type Credentials } from '../../auth';
import { createClient } from '../../client';
import { parseCommandLine } from '../args';
import { DEFAULT_URL, readConfig, writeConfig } from '../config';
import { askHidden } from '../prompt';
import { UsageError, type Terminal } from '../terminal';

export const LOGIN_USAGE = `Usage: docconv login --email <email> [--password <password>] [--signup] [--url <url>]

Logs in, creates an API key for this machine and saves it with the service URL in
$XDG_CONFIG_HOME/docconv/config.json (~/.config/docconv/config.json), readable by you only.

Options:
  --email <email>        the account's email
  --password <password>  else DOCCONV_PASSWORD, else asked for on the terminal
  --signup               create the account first
  --url <url>            the service (default: DOCCONV_URL, the saved URL, or ${DEFAULT_URL})
  --name <name>          the new key's display name (default: docconv CLI on <host>)`;

/** The password from the flag, DOCCONV_PASSWORD, or the terminal; never echoed. */
async function readPassword(given: string | undefined, term: Terminal): Promise<string> {
  const password = given ?? term.env.DOCCONV_PASSWORD;
  if (password) return password;
  if (!term.stdin.isTTY) {
    throw new UsageError('no password: pass --password, set DOCCONV_PASSWORD, or run in a terminal', LOGIN_USAGE);
  }
  return askHidden('Password: ', term.stdin, term.stderr);
}

/** `docconv login`: session → new API key → saved configuration → session ended. */
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
  const key = await createKey(client, session, { name: values.name ?? `docconv CLI on ${hostname()}` });
  const path = await writeConfig(term.env, { url: client.baseUrl, apiKey: key.key });
  // The session was only for making the key: it ends here rather than lingering until it expires.
  await logout(client, session).catch(() =>
    term.stderr.write('Note: the log-in session could not be ended; it expires by itself.\n'),
  );

  term.stdout.write(
    `${values.signup ? 'Created the account and logged in' : 'Logged in'} to ${client.baseUrl} as ${values.email}.\n` +
      `API key ${key.prefix}… saved to ${path}.\n`,
  );
  if (term.env.DOCCONV_API_KEY) {
    term.stderr.write('Note: DOCCONV_API_KEY is set and takes precedence over the saved key.\n');
  }
}
