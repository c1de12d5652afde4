import type { JobEntity } from '@docconv/db';
import { readMarkdown, type Document } from '@docconv/model';
import { documentPath, Storage } from '@docconv/storage';

/** A finished job's document as stored, and how many bytes were read to get it. */
export interface LoadedDocument {
  document: Document;
  /** The bytes of document.json, or of result.md for a job finished before it. */
  bytes: number;
  source: 'document.json' | 'result.md';
}

/**
 * What a finished job's conversions render: the document the worker stored beside its Markdown
 * (document.json), or for a job finished before it did, its Markdown read back. `allowed` sees
 * the size of what is about to be parsed and may refuse it by throwing.
 */
export async function loadJobDocument(
  storage: Storage,
  job: Pick<JobEntity, 'id' | 'filename' | 'resultPath'>,
  allowed: (loaded: Omit<LoadedDocument, 'document'>) => void = () => undefined,
): Promise<LoadedDocument> {
  const stored = documentPath(job.id);
  if (await storage.exists(stored)) {
    const bytes = await storage.read(stored);
    allowed({ bytes: bytes.length, source: 'document.json' });
    return { document: JSON.parse(bytes.toString('utf8')) as Document, bytes: bytes.length, source: 'document.json' };
  }
  const bytes = await storage.read(job.resultPath!);
  allowed({ bytes: bytes.length, source: 'result.md' });
  return { document: readMarkdown(bytes.toString('utf8'), job.filename), bytes: bytes.length, source: 'result.md' };
}
