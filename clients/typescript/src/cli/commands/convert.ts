import { parseArgs } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { convert, downloadConverted, type ConversionFormat } from '../../jobs';
import { oneOf, parseCommandLine, single } from '../args';
import { UsageError, type Terminal } from '../terminal';
import { connect } from './connect';

/** The file extension of each conversion format. */
const EXTENSIONS: Record<ConversionFormat, string> = {
  docx: 'docx',
  pptx: 'pptx',
  xlsx_basic: 'xlsx',
  xlsx_advanced: 'xlsx',
  hwpx: 'hwpx',
};
const FORMATS = Object.keys(EXTENSIONS) as ConversionFormat[];

export const CONVERT_USAGE = `Usage: docconv convert <job_id> --format docx|pptx|hwpx|xlsx_basic|xlsx_advanced [--out <file>]

Converts a finished job's Markdown to an office file and downloads it. Only the first
conversion of each format is charged (XLSX); DOCX, PPTX and HWPX (Hancom Office) are free.

Options:
  --format <format>   docx, pptx, hwpx, xlsx_basic or xlsx_advanced
  --out, -o <file>    where to write the file (default: <job_id>.<extension>)`;

/** `docconv convert`: convert, then fetch the file from its signed link. */
export async function convertCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(CONVERT_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string' }, out: { type: 'string', short: 'o' } },
    }),
  );
  const jobId = single(positionals, 'job id', CONVERT_USAGE);
  const format = oneOf(values.format, FORMATS, '--format', CONVERT_USAGE);
  if (!format) throw new UsageError('--format is required', CONVERT_USAGE);
  const out = values.out ?? `${jobId}.${EXTENSIONS[format]}`;

  const client = await connect(term);
  const conversion = await convert(client, jobId, format);
  const bytes = await downloadConverted(client, conversion);
  await writeFile(out, bytes);
  term.stdout.write(`Wrote ${out} (${bytes.byteLength} bytes).\n`);
}
