import type { JobEntity } from '@docconv/db';
import { readMarkdown, writeMarkdown, type Document } from '@docconv/model';
import { documentPath, Storage } from '@docconv/storage';

/**
 * What a finished job's conversions render, as stored: the document the worker wrote beside its
 * Markdown (document.json), or for a job finished before it did, only its Markdown.
 */
export type StoredResult =
  { source: 'document.json'; document: Document } | { source: 'result.md'; markdown: string; file: string };

/**
 * The job's stored result. `allowed` sees the size of what is about to be parsed (its source and
 * bytes) and may refuse it by throwing.
 */
export async function loadStoredResult(
  storage: Storage,
  job: Pick<JobEntity, 'id' | 'filename' | 'resultPath'>,
  allowed: (source: StoredResult['source'], bytes: number) => void = () => undefined,
): Promise<StoredResult> {
  const stored = documentPath(job.id);
  if (await storage.exists(stored)) {
    const bytes = await storage.read(stored);
    allowed('document.json', bytes.length);
    return { source: 'document.json', document: JSON.parse(bytes.toString('utf8')) as Document };
  }
  const bytes = await storage.read(job.resultPath!);
  allowed('result.md', bytes.length);
  return { source: 'result.md', markdown: bytes.toString('utf8'), file: job.filename };
}

/**
 * The job's document: as stored, or its Markdown read back with readMarkdown, which takes
 * seconds for a large result (about 2.7 ms a block): not on an event loop that serves requests.
 */
export function documentOf(result: StoredResult): Document {
  return result.source === 'document.json' ? result.document : readMarkdown(result.markdown, result.file);
}

/** The job's Markdown: the stored document written, which is result.md byte for byte, or result.md itself. */
export function markdownOf(result: StoredResult): string {
  return result.source === 'document.json' ? writeMarkdown(result.document) : result.markdown;
}
