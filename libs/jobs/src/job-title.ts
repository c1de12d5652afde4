import type { IntakeFile } from '@docconv/documents';

/** The longest a job title is stored. */
const MAX_TITLE_LENGTH = 200;

/**
 * A job's title, from its files in upload order: the archive's name for a job made from one
 * archive (`bundle.zip`, however many files it held), the file's name for one file, else the first
 * file's name and how many more there are (`a.pdf (+2 more)`, `mail.eml (+1 more)` for a mail
 * with an attachment). Download names are made from it (`downloadName`).
 */
export function jobTitle(files: readonly Pick<IntakeFile, 'displayPath' | 'upload'>[]): string {
  const [first] = files;
  const oneArchive = files.every((f) => f.upload === first.upload && f.displayPath !== f.upload);
  const title = oneArchive
    ? first.upload
    : files.length === 1
      ? first.displayPath
      : `${first.displayPath} (+${files.length - 1} more)`;
  return [...title].slice(0, MAX_TITLE_LENGTH).join('');
}
