import { DomainError } from '@docconv/contracts';
import { detect, type DetectOptions } from './detect';
import {
  extractArchive,
  storeMember,
  type ArchiveBudget,
  type ArchiveLimits,
  type ExtractedEntry,
} from './archive/extract-archive';
import { readEmail } from './email/read-email';
import { acceptedFormatsSentence } from './formats';
import { inspect } from './inspect';
import type { HtmlContent } from './html/main-content';
import type { DetectedFile, FileKind, Inspection } from './kinds';

/** What detection needs, and how what is read of a file is chosen where it decides its price. */
export interface IntakeOptions extends DetectOptions {
  /** What of a web page is read (the upload's `html_content`); `main` when absent. */
  htmlContent?: HtmlContent;
}

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
  /** A member of a ZIP or TAR archive (an e-mail's attachments are not). */
  fromArchive: boolean;
  /** The name of the uploaded file it is or came out of (`bundle.zip` for `bundle.zip/a.pdf`). */
  upload: string;
}

/** A member of an archive or e-mail that is not converted, and why. */
export interface SkippedFile {
  displayPath: string;
  reason: string;
}

export interface IntakeResult {
  files: IntakeFile[];
  skipped: SkippedFile[];
}

/** Archives and e-mails inside archives and e-mails are opened this many levels deep, no further. */
export const MAX_ARCHIVE_DEPTH = 2;

/**
 * Everything between the bytes arriving and the price: each file's type from its content,
 * archives unpacked and e-mails' attachments taken out (nested up to two levels, within the
 * limits), and each resulting file measured. Files keep the upload's order; an archive's files
 * take its place in it, an e-mail's attachments follow the message. A member of an archive or
 * e-mail that is not a supported document, or cannot be read, is skipped with its reason; an
 * upload with nothing convertible is refused with those reasons.
 */
export async function intake(
  inputs: IntakeInput[],
  workFolder: string,
  limits: ArchiveLimits,
  options: IntakeOptions,
  onFile: (displayPath: string) => void = () => undefined,
): Promise<IntakeResult> {
  const budget: ArchiveBudget = { files: limits.maxFiles, bytes: limits.maxTotalBytes };
  let counter = 0;
  const nextId = () => ++counter;
  const files: IntakeFile[] = [];
  const skipped: SkippedFile[] = [];

  const tooDeep = (displayPath: string) =>
    new DomainError(
      'unsupported_format',
      `${displayPath} is nested more than ${MAX_ARCHIVE_DEPTH} levels deep in archives or e-mails. Unpack it and upload its files.`,
    );

  const take = async (
    path: string,
    displayPath: string,
    depth: number,
    inArchive: boolean,
    upload: string,
  ): Promise<void> => {
    onFile(displayPath);
    let detected: DetectedFile;
    let inspection: Inspection | undefined;
    try {
      detected = await detect(path, displayPath, options);
      if (detected.kind !== 'archive')
        inspection = await inspect(path, detected.kind, detected.mime, displayPath, limits, options.htmlContent);
    } catch (error) {
      if (depth > 0 && error instanceof DomainError && error.code === 'unsupported_format') {
        skipped.push({ displayPath, reason: error.message.replace(acceptedFormatsSentence(options.media), '').trim() });
        return;
      }
      throw error;
    }
    if (detected.kind === 'archive') {
      if (depth >= MAX_ARCHIVE_DEPTH) throw tooDeep(displayPath);
      const entries = await extractArchive(path, detected.format, displayPath, workFolder, limits, budget, nextId);
      for (const entry of entries) await take(entry.path, `${displayPath}/${entry.name}`, depth + 1, true, upload);
      return;
    }
    if (depth === 0) {
      budget.files -= 1;
      if (budget.files < 0) {
        throw new DomainError('payload_too_large', `An upload may hold at most ${limits.maxFiles} files.`);
      }
    }
    files.push({
      path,
      displayPath,
      kind: detected.kind,
      mime: detected.mime,
      inspection: inspection!,
      fromArchive: inArchive,
      upload,
    });
    if (detected.kind === 'eml' || detected.kind === 'msg') {
      const attachments = await emailAttachments(path, detected.kind, displayPath);
      if (attachments.length > 0 && depth >= MAX_ARCHIVE_DEPTH) throw tooDeep(displayPath);
      for (const entry of attachments) await take(entry.path, `${displayPath}/${entry.name}`, depth + 1, false, upload);
    }
  };

  const emailAttachments = async (path: string, kind: 'eml' | 'msg', displayPath: string) => {
    const message = await readEmail(path, kind, displayPath, { maxAttachmentBytes: limits.maxTotalBytes });
    const entries: ExtractedEntry[] = [];
    for (const attachment of message.attachments) {
      entries.push(
        await storeMember(attachment.content, attachment.name, displayPath, workFolder, limits, budget, nextId),
      );
    }
    return entries;
  };

  for (const input of inputs) await take(input.path, input.displayName, 0, false, input.displayName);
  if (files.length === 0) {
    if (skipped.length > 0) {
      throw new DomainError(
        'unsupported_format',
        `The upload holds nothing that can be converted: ${skipped.map((s) => s.reason).join(' ')}`,
        { errors: skipped.map((s) => ({ field: 'files', message: `${s.displayPath}: ${s.reason}` })) },
      );
    }
    throw new DomainError('validation_failed', 'The upload holds no files to convert (its archives are empty).', {
      errors: [{ field: 'files', message: 'no convertible files' }],
    });
  }
  return { files, skipped };
}
