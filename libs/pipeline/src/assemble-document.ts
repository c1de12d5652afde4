import {
  blockMarkdown,
  MAX_READ_BACK_BYTES,
  plain,
  readMarkdown,
  writeMarkdown,
  type Block,
  type Document,
} from '@docconv/model';

/** One file's stretch of a job's Markdown, as the parse laid it out (see ParseRunner.convert). */
export interface DocumentPart {
  /** The file's name as the job shows it: the provenance of the part's blocks. */
  file: string;
  /** The stretch of the job's Markdown, exactly. */
  markdown: string;
  /** Under a `## <file>` heading the parse wrote above the file's own Markdown (trimmed). */
  headed: boolean;
  /** The document the file's reader built, when it built one and the stretch is its Markdown (not refined). */
  read?: Document;
}

/** What a job's parts are joined with in its Markdown. */
export const PART_SEPARATOR = '\n';

/** The heading naming a file above its part of a job of several files. */
export function fileHeading(file: string): Block {
  return { type: 'heading', level: 2, content: plain(file), from: { file } };
}

/** A file's part of a job of several: the heading naming it, then its own Markdown (trimmed). */
export function headedPart(file: string, markdown: string): string {
  return `${writeMarkdown({ version: 1, blocks: [fileHeading(file)] })}\n${markdown.trim()}\n`;
}

/**
 * The job's document: its files' documents in order, each block carrying its file, such that
 * `writeMarkdown` of it is the job's Markdown (`parts` joined by PART_SEPARATOR) byte for byte.
 * A part whose reader built no document, or whose document does not write its stretch exactly
 * (refined pages, a reader's Markdown the writer spells differently), is its Markdown read back;
 * undefined if even that does not give the Markdown back, or if what would be read back is
 * larger than MAX_READ_BACK_BYTES (the job is then stored without a document).
 */
export function assembleDocument(parts: readonly DocumentPart[]): Document | undefined {
  const markdown = parts.map((part) => part.markdown).join(PART_SEPARATOR);
  const documents = parts.map(partDocument);
  if (documents.every((document) => document !== undefined)) {
    const built = joinDocuments(documents);
    if (writeMarkdown(built) === markdown) return built;
  }
  // The readers' documents meet in a way the writer spells otherwise (a list across two files).
  if (markdown.length > MAX_READ_BACK_BYTES) return undefined;
  const read = joinDocuments(parts.map((part) => readMarkdown(part.markdown, part.file)));
  return writeMarkdown(read) === markdown ? read : undefined;
}

/**
 * A part's document: its reader's, under the parse's heading when it has one, or its Markdown read
 * back; undefined when that would be too large to read back.
 */
function partDocument(part: DocumentPart): Document | undefined {
  if (part.read !== undefined) {
    const heading: Block[] = part.headed ? [fileHeading(part.file)] : [];
    const document = { ...part.read, blocks: [...heading, ...part.read.blocks] };
    if (writeMarkdown(document) === part.markdown) return document;
  }
  return part.markdown.length > MAX_READ_BACK_BYTES ? undefined : readMarkdown(part.markdown, part.file);
}

/**
 * Documents one after the other, as their Markdown joined by PART_SEPARATOR: what a document
 * ends with and the separator go before the next one's first block when it was written as
 * Markdown; a block the writer writes itself takes the writer's separator (checked by the caller).
 */
function joinDocuments(documents: readonly Document[]): Document {
  const blocks: Block[] = [];
  let owed: string | undefined; // the Markdown between the last block so far and the next one
  for (const document of documents) {
    for (const block of document.blocks) {
      if (owed !== undefined && block.written !== undefined) blocks.push({ ...block, written: owed + block.written });
      else blocks.push(block);
      owed = undefined;
    }
    owed = (owed ?? '') + endOf(document) + PART_SEPARATOR;
  }
  const trailing = owed?.slice(0, -PART_SEPARATOR.length);
  return { version: 1, blocks, ...(trailing !== undefined && trailing !== '\n' ? { trailing } : {}) };
}

/** What a document's Markdown ends with after its last block. */
function endOf(document: Document): string {
  if (document.trailing !== undefined) return document.trailing;
  const writes = document.blocks.some((block) => block.written !== undefined || blockMarkdown(block) !== undefined);
  return writes ? '\n' : '';
}
