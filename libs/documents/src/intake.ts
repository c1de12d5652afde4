import { DomainError } from '@docconv/contracts';
import { detect } from './detect';
import { extractArchive, type ArchiveBudget, type ArchiveLimits } from './archive/extract-archive';
import { inspect } from './inspect';
import type { FileKind, Inspection } from './kinds';

export interface IntakeInput {
  path: string;
  /** The upload's name, or its relative path when the client gave one. */
  displayName: string;
}

export interface IntakeFile {
  path: string;
  displayPath: string;
  kind: FileKind;
  mime: string;
  inspection: Inspection;
  fromArchive: boolean;
}

/** Archives inside archives are unpacked this many levels deep, no further. */
export const MAX_ARCHIVE_DEPTH = 2;

/**
 * Everything between the bytes arriving and the price: each file's type from its content,
 * archives unpacked (nested up to two levels, within the limits), and each resulting file
 * measured. Files keep the upload's order; an archive's files take its place in it.
 */
export async function intake(
  inputs: IntakeInput[],
  workFolder: string,
  limits: ArchiveLimits,
  onFile: (displayPath: string) => void = () => undefined,
): Promise<IntakeFile[]> {
  const budget: ArchiveBudget = { files: limits.maxFiles, bytes: limits.maxTotalBytes };
  let counter = 0;
  const nextId = () => ++counter;
  const files: IntakeFile[] = [];

  const take = async (path: string, displayPath: string, depth: number): Promise<void> => {
    onFile(displayPath);
    const detected = await detect(path, displayPath);
    if (detected.kind === 'archive') {
      if (depth >= MAX_ARCHIVE_DEPTH) {
        throw new DomainError(
          'unsupported_format',
          `${displayPath} is an archive nested more than ${MAX_ARCHIVE_DEPTH} levels deep. Unpack it and upload its files.`,
        );
      }
      const entries = await extractArchive(path, detected.format, displayPath, workFolder, limits, budget, nextId);
      for (const entry of entries) await take(entry.path, `${displayPath}/${entry.name}`, depth + 1);
      return;
    }
    if (depth === 0) {
      budget.files -= 1;
      if (budget.files < 0) {
        throw new DomainError('payload_too_large', `An upload may hold at most ${limits.maxFiles} files.`);
      }
    }
    const inspection = await inspect(path, detected.kind, detected.mime, displayPath, limits);
    files.push({ path, displayPath, kind: detected.kind, mime: detected.mime, inspection, fromArchive: depth > 0 });
  };

  for (const input of inputs) await take(input.path, input.displayName, 0);
  if (files.length === 0) {
    throw new DomainError('validation_failed', 'The upload holds no files to convert (its archives are empty).', {
      errors: [{ field: 'files', message: 'no convertible files' }],
    });
  }
  return files;
}
