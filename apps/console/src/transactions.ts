import type { ConversionFormat, Transaction } from '@docconv/client';
import type { TextKey } from './messages/en';

/** A ledger row's type in words. */
export const TRANSACTION_TYPES: Record<Transaction['type'], TextKey> = {
  charge: 'transaction.charge',
  spend: 'transaction.spend',
  refund: 'transaction.refund',
  grant: 'transaction.grant',
};

/**
 * A transaction's description as the console says it: a message, its values, the job it is about
 * (shown as a short link, `{job}` in the message) and the conversion it paid for (`{format}`);
 * `text` when no rule knows the description (it is shown as written, its job ids as links).
 */
export type TransactionDescription =
  { key: TextKey; values: Record<string, string>; jobId?: string; format?: ConversionFormat } | { text: string };

/** A job id as the ledger writes it. */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The conversions as the ledger names them (libs/lifecycle CONVERSION_LABELS). */
const CONVERSIONS: Record<string, ConversionFormat> = {
  'XLSX Basic': 'xlsx_basic',
  'XLSX Advanced': 'xlsx_advanced',
  DOCX: 'docx',
  PPTX: 'pptx',
  HWPX: 'hwpx',
};
const CONVERSION = Object.keys(CONVERSIONS).join('|');

/**
 * The descriptions the service writes (libs/lifecycle transitions, libs/billing payments, the admin
 * CLI's default), first match wins: the type, the shape (named groups become the message's values;
 * `job` is the job's id, `conversion` a conversion's label) and the message.
 */
const RULES: { type: Transaction['type']; pattern: RegExp; key: TextKey }[] = [
  { type: 'spend', pattern: new RegExp(`^Job (?<job>${UUID}): (?<title>.*)$`, 's'), key: 'transaction.job' },
  {
    type: 'spend',
    pattern: new RegExp(`^(?<conversion>${CONVERSION}) of job (?<job>${UUID})$`),
    key: 'transaction.conversion',
  },
  {
    type: 'refund',
    pattern: new RegExp(`^Job (?<job>${UUID}) cancelled before processing$`),
    key: 'transaction.cancelled',
  },
  {
    type: 'refund',
    pattern: new RegExp(`^Job (?<job>${UUID}): cancelled while processing;`),
    key: 'transaction.stopped',
  },
  { type: 'refund', pattern: new RegExp(`^Job (?<job>${UUID}): not delivered:`), key: 'transaction.undelivered' },
  { type: 'refund', pattern: new RegExp(`^Refund of job (?<job>${UUID})$`), key: 'transaction.jobRefund' },
  {
    type: 'refund',
    pattern: new RegExp(`^Refund of the (?<conversion>${CONVERSION}) conversion of job (?<job>${UUID})$`),
    key: 'transaction.conversionRefund',
  },
  { type: 'charge', pattern: /^Stripe payment \S+: (?<amount>\$[0-9.,]+)$/, key: 'transaction.stripe' },
  { type: 'grant', pattern: /^Granted by an operator$/, key: 'transaction.operator' },
];

/** What the console says of `transaction`'s description; the values as the service wrote them (a job's title, an amount). */
export function describeTransaction(transaction: Pick<Transaction, 'type' | 'description'>): TransactionDescription {
  for (const rule of RULES) {
    if (rule.type !== transaction.type) continue;
    const match = rule.pattern.exec(transaction.description);
    if (!match) continue;
    const { job, conversion, ...values } = match.groups ?? {};
    return {
      key: rule.key,
      values,
      ...(job ? { jobId: job } : {}),
      ...(conversion ? { format: CONVERSIONS[conversion] } : {}),
    };
  }
  return { text: transaction.description };
}

/** `text` cut at each job id in it: the text between, and the ids (odd places). */
export function splitJobIds(text: string): string[] {
  return text.split(new RegExp(`(${UUID})`, 'i'));
}

/** How a job id is shown in a sentence: its first eight characters. */
export function shortJobId(jobId: string): string {
  return `${jobId.slice(0, 8)}…`;
}
