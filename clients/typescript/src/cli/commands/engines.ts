import { parseArgs } from 'node:util';
import { unwrap } from '../../client';
import { parseCommandLine } from '../args';
import { formatCapabilities } from '../format';
import { UsageError, type Terminal } from '../terminal';
import { connect } from './connect';

export const ENGINES_USAGE = `Usage: docconv engines

Shows what the service runs now: the input formats it accepts, its OCR engines (the default
marked), the speech model and the engine processes with their versions, weights, languages and
state.`;

/** `docconv engines`: the service's capabilities as its workers report them. */
export async function enginesCommand(args: string[], term: Terminal): Promise<void> {
  const { positionals } = parseCommandLine(ENGINES_USAGE, () =>
    parseArgs({ args, allowPositionals: true, options: {} }),
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`, ENGINES_USAGE);
  const client = await connect(term);
  const capabilities = await unwrap(client.api.GET('/api/v1/capabilities'));
  term.stdout.write(`${formatCapabilities(capabilities)}\n`);
}
