import { parseArgs } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { downloadMarkdown, downloadStructured, downloadZip } from '../../jobs';
import { oneOf, parseCommandLine, single } from '../args';
import type { Terminal } from '../terminal';
import { connect } from './connect';

const FORMATS = ['md', 'json', 'zip'] as const;

export const DOWNLOAD_USAGE = `Usage: docconv download <job_id> [--format md|json|zip] [--out <file>]

Downloads a finished job's result; free, as often as you like.

Options:
  --format <format>   md (default): the Markdown; json: its typed blocks, each with its
                      [start, end) in the Markdown (code points), page and box;
                      zip: result.md, result.json and the images they link
  --out, -o <file>    where to write it (default: the Markdown to standard output,
                      json and zip to <job_id>.json or <job_id>.zip)`;

/** `docconv download`: the Markdown, the structured result, or both with the images in a zip. */
export async function downloadCommand(args: string[], term: Terminal): Promise<void> {
  const { values, positionals } = parseCommandLine(DOWNLOAD_USAGE, () =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string' }, out: { type: 'string', short: 'o' } },
    }),
  );
  const jobId = single(positionals, 'job id', DOWNLOAD_USAGE);
  const format = oneOf(values.format, FORMATS, '--format', DOWNLOAD_USAGE) ?? 'md';
  const client = await connect(term);
  const bytes =
    format === 'md'
      ? Buffer.from(await downloadMarkdown(client, jobId), 'utf8')
      : format === 'json'
        ? Buffer.from(JSON.stringify(await downloadStructured(client, jobId), null, 2), 'utf8')
        : await downloadZip(client, jobId);
  const out = values.out ?? (format === 'md' ? undefined : `${jobId}.${format}`);
  if (out === undefined) {
    term.stdout.write(bytes);
    return;
  }
  await writeFile(out, bytes);
  term.stdout.write(`Wrote ${out} (${bytes.byteLength} bytes).\n`);
}
