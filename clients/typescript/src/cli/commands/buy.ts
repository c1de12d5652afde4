import { parseArgs } from 'node:util';
import { startCheckout } from '../../payments';
import { parseCommandLine, positiveInteger, single } from '../args';
import { formatPoints } from '../format';
import type { Terminal } from '../terminal';
import { connect } from './connect';

export const BUY_USAGE = `Usage: docconv buy <usd>

Buys credits: opens a Stripe checkout for <usd> whole US dollars (within the bounds the
service's pricing lists) and prints the page to pay on. Nothing is charged until you pay
there; the points are added once Stripe confirms the payment (see \`docconv balance\`).`;

/** `docconv buy <usd>`: the checkout page's URL on stdout, what it buys on stderr. */
export async function buyCommand(args: string[], term: Terminal): Promise<void> {
  const { positionals } = parseCommandLine(BUY_USAGE, () => parseArgs({ args, allowPositionals: true, options: {} }));
  const usd = positiveInteger(single(positionals, 'amount in US dollars', BUY_USAGE), '<usd>', BUY_USAGE)!;
  const checkout = await startCheckout(await connect(term), usd);
  term.stderr.write(`$${checkout.amount} buys ${formatPoints(checkout.points)}. Pay on Stripe's page:\n`);
  term.stdout.write(`${checkout.url}\n`);
  term.stderr.write('The points are added once Stripe confirms the payment: `docconv balance` shows them.\n');
}
