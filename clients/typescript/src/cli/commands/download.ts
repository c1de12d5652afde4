import { parseArgs } from 'node:util';
import { downloadFile, type DownloadFormat } from '../../jobs';
import { oneOf, parseCommandLine, single } from '../args';
import { FORMAT_EXTENSIONS, saveResult } from '../output';
import type { Terminal } from '../terminal';
import { connect } from './connect';

const FORMATS = Object.keys(FORMAT_EXTENSIONS) as DownloadFormat[];

export const DOWNLOAD_USAGE = `Usage: docconv download <job_id> [--format <format>] [--out <file or folder/>]

Downloads a finished job's result; free, as often as you like.

Options:
  --format <format>   md (default): the Markdown; json: its typed blocks, each with its
                      [start, end) in the Markdown (code points), page and box;
                      zip: result.md, result.json and the images they link;
                      docx, pptx, hwpx, xlsx_basic, xlsx_advanced: a conversion already made
                      (make one with \`docconv convert\`)
  --out, -o <path>    a file, or a folder (one that exists, or a path ending with /) to
                      save it in under the job's title, e.g. out/Report.json (default: the
                      Markdown to standard output, other formats to <job_id>.<extension>)`;

/** `docconv download`: the Markdown, the structured result, both with the images in a zip, or a conversion. */
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
  const result = { jobId, format };
  const downloaded = await downloadFile(client, jobId, format);
  // The structured result is indented for reading; the service sends it compact.
  const file = format === 'json' ? { ...downloaded, bytes: indentJson(downloaded.bytes) } : downloaded;
  const out = values.out ?? (format === 'md' ? undefined : `${jobId}.${FORMAT_EXTENSIONS[format]}`);
  if (out === undefined) {
    term.stdout.write(file.bytes);
    return;
  }
  const written = await saveResult(result, file, out);
  term.stdout.write(`Wrote ${written} (${file.bytes.byteLength} bytes).\n`);
}

function indentJson(bytes: Uint8Array): Uint8Array {
  return Buffer.from(JSON.stringify(JSON.parse(Buffer.from(bytes).toString('utf8')), null, 2), 'utf8');
}
