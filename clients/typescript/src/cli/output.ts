import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import { DocconvError } from '../errors';
import type { DownloadedFile, DownloadFormat } from '../jobs';
import { CliFailure } from './terminal';

/** The file extension of each downloadable format. */
export const FORMAT_EXTENSIONS: Record<DownloadFormat, string> = {
  md: 'md',
  json: 'json',
  zip: 'zip',
  docx: 'docx',
  pptx: 'pptx',
  hwpx: 'hwpx',
  xlsx_basic: 'xlsx',
  xlsx_advanced: 'xlsx',
};

/** A job's result to save: which job and format it is, for the command that fetches it again. */
export interface ResultToSave {
  jobId: string;
  format: DownloadFormat;
}

/**
 * The local name of a downloaded file: the name the service gave (the job title made safe for every
 * operating system, one rule on the server), kept to a single name inside the folder chosen; else
 * `<job_id>.<extension>`.
 */
export function localName(result: ResultToSave, filename: string | null): string {
  const name = filename === null ? '' : basename(filename.replace(/\\/g, '/'));
  return name === '' || name === '.' || name === '..' ? `${result.jobId}.${FORMAT_EXTENSIONS[result.format]}` : name;
}

/** Whether `out` names a folder: it ends with a separator, or it is a folder that exists. */
async function isFolder(out: string): Promise<boolean> {
  if (out.endsWith('/') || out.endsWith(sep)) return true;
  try {
    return (await stat(out)).isDirectory();
  } catch {
    return false;
  }
}

/** A shell word that pastes back as it is: plain when it is safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What to run to fetch a result again; a finished job's results stay downloadable, and downloading again is free. */
export function fetchAgainHint(result: ResultToSave, name: string): string {
  return [
    `Nothing is lost: job ${result.jobId} is finished and stays downloadable, free, as often as you like.`,
    'Fetch the result again with:',
    `  docconv download ${result.jobId} --format ${result.format} --out ${shellWord(name)}`,
  ].join('\n');
}

/**
 * Saves a downloaded result where `--out` says: a file, or inside a folder (one that exists, or a
 * path ending with `/`, made if missing) under its download name. Any failure to write says where
 * the result can still be fetched, and exits non-zero. Returns the path written.
 */
export async function saveResult(result: ResultToSave, file: DownloadedFile, out: string): Promise<string> {
  const name = localName(result, file.filename);
  let target = out;
  try {
    if (await isFolder(out)) {
      await mkdir(out, { recursive: true });
      target = join(out, name);
    }
    await writeFile(target, file.bytes);
    return target;
  } catch (error) {
    throw new CliFailure(`Could not write ${target}: ${describeWriteError(error)}`, fetchAgainHint(result, name));
  }
}

/**
 * Fetches a result the caller is entitled to (a paid job, a conversion made), turning any failure
 * into one that says how to fetch it again instead of a bare error.
 */
export async function fetchResult(
  result: ResultToSave,
  out: string | undefined,
  fetch: () => Promise<DownloadedFile>,
): Promise<DownloadedFile> {
  try {
    return await fetch();
  } catch (error) {
    const reason =
      error instanceof DocconvError
        ? `${error.title}: ${error.detail}`
        : error instanceof Error
          ? error.message
          : String(error);
    throw new CliFailure(
      `Could not download the result of job ${result.jobId}: ${reason}`,
      fetchAgainHint(result, out ?? localName(result, null)),
    );
  }
}

const WRITE_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  ENAMETOOLONG: 'the name is too long for this file system',
  EEXIST: 'a file of that name is in the way',
};

/** A write error in words, with its code (`permission denied (EACCES)`), never a stack. */
function describeWriteError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && WRITE_ERRORS[code]) return `${WRITE_ERRORS[code]} (${code})`;
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}
