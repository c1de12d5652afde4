import { parseArgs } from 'node:util';
import type { DocconvClient } from '../../client';
import { convert, downloadConvertedFile, type ConversionFormat } from '../../jobs';
import { conversionPrice } from '../../pricing';
import { oneOf, parseCommandLine, single } from '../args';
import { formatPoints } from '../format';
import { FORMAT_EXTENSIONS, fetchResult, saveResult } from '../output';
import { askYesNo } from '../prompt';
import { CliFailure, UsageError, type Terminal } from '../terminal';
import { connect } from './connect';

const FORMATS: readonly ConversionFormat[] = ['docx', 'pptx', 'hwpx', 'xlsx_basic', 'xlsx_advanced'];

export const CONVERT_USAGE = `Usage: docconv convert <job_id> --format docx|pptx|hwpx|xlsx_basic|xlsx_advanced [--out <file or folder/>] [--yes]

Converts a finished job's Markdown to an office file and downloads it. Only the first
conversion of each format is charged (XLSX); DOCX, PPTX and HWPX (Hancom Office) are free.
A charged conversion shows its price and asks first.

Options:
  --format <format>   docx, pptx, hwpx, xlsx_basic or xlsx_advanced
  --out, -o <path>    a file, or a folder (one that exists, or a path ending with /) to
                      save it in under the job's title, e.g. out/Report.xlsx
                      (default: <job_id>.<extension>)
  --yes, -y           convert without asking (needed when there is no terminal to ask on)`;

/** `docconv convert`: show the price and ask when it is charged, convert, then fetch the file from its signed link. */
export async function convertCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(CONVERT_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        out: { type: 'string', short: 'o' },
        yes: { type: 'boolean', short: 'y' },
      },
    }),
  );
  const jobId = single(positionals, 'job id', CONVERT_USAGE);
  const format = oneOf(values.format, FORMATS, '--format', CONVERT_USAGE);
  if (!format) throw new UsageError('--format is required', CONVERT_USAGE);

  const client = await connect(term);
  await approveConversion(client, jobId, format, Boolean(values.yes), term);
  const conversion = await convert(client, jobId, format);
  const result = { jobId, format };
  const file = await fetchResult(result, values.out, () => downloadConvertedFile(client, conversion));
  const written = await saveResult(result, file, values.out ?? `${jobId}.${FORMAT_EXTENSIONS[format]}`);
  term.stdout.write(`Wrote ${written} (${file.bytes.byteLength} bytes).\n`);
}

/**
 * Says what the conversion costs and, when it is charged, asks first unless --yes. Without a
 * terminal there is nobody to ask, so the CLI refuses rather than charging silently. A job that
 * is not finished is left to the service, which says why it cannot be converted yet.
 */
async function approveConversion(
  client: DocconvClient,
  jobId: string,
  format: ConversionFormat,
  yes: boolean,
  term: Terminal,
): Promise<void> {
  if (format !== 'xlsx_basic' && format !== 'xlsx_advanced') {
    term.stdout.write(`Converting job ${jobId} to ${format}: free.\n`);
    return;
  }
  const job = await client.getJob(jobId);
  if (job.status !== 'done') return;
  const points = conversionPrice(await client.getPricing(), job, format);
  if (points === 0) {
    const converted = format === 'xlsx_basic' ? job.xlsx_basic_converted : job.xlsx_advanced_converted;
    term.stdout.write(
      converted
        ? `Job ${jobId} is converted to ${format} already: downloading it again is free.\n`
        : `Converting job ${jobId} to ${format}: free.\n`,
    );
    return;
  }
  const units = `${job.conversion_units} conversion unit${job.conversion_units === 1 ? '' : 's'}`;
  term.stdout.write(
    `Converting job ${jobId} to ${format} costs ${formatPoints(points)} (${units}); converting it again later is free.\n`,
  );
  if (yes) return;
  if (!term.stdin.isTTY) {
    throw new CliFailure(
      `Not converted: there is no terminal to ask whether to spend ${formatPoints(points)}.`,
      `Add --yes to convert without asking. Nothing was charged.`,
      2,
    );
  }
  if (!(await askYesNo(`Convert job ${jobId} to ${format} for ${formatPoints(points)}?`, term.stdin, term.stderr))) {
    throw new CliFailure('Not converted.', 'Nothing was charged.');
  }
}
