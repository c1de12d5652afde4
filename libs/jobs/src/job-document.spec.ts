import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plain, writeMarkdown, type Document } from '@docconv/model';
import { documentPath, LocalDiskStorage, markdownPath } from '@docconv/storage';
import { documentOf, loadStoredResult, markdownOf } from './job-document';

const JOB = '0b6f3c1e-7d2a-4f8e-9c1b-5a4e3d2c1b0a';
const job = { id: JOB, filename: 'report.pdf', resultPath: markdownPath(JOB) };
const MARKDOWN = '# Report\n\nSales rose by **7 %**.\n';

describe('a finished job’s stored result', () => {
  let root: string;
  let storage: LocalDiskStorage;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'docconv-job-document-'));
    storage = new LocalDiskStorage(root);
    await storage.put(markdownPath(JOB), Buffer.from(MARKDOWN, 'utf8'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('is the document stored beside the Markdown when there is one', async () => {
    const document: Document = {
      version: 1,
      blocks: [{ type: 'paragraph', content: plain('From the document.'), from: { file: 'report.pdf', page: 1 } }],
    };
    await storage.put(documentPath(JOB), Buffer.from(JSON.stringify(document), 'utf8'));
    const stored = await loadStoredResult(storage, job);
    expect(stored.source).toBe('document.json');
    expect(documentOf(stored)).toEqual(document);
    expect(markdownOf(stored)).toBe('From the document.\n');
  });

  it('is the Markdown, read back into the model, for a job finished before documents were stored', async () => {
    const stored = await loadStoredResult(storage, job);
    expect(stored.source).toBe('result.md');
    expect(markdownOf(stored)).toBe(MARKDOWN);
    const document = documentOf(stored);
    expect(document.blocks.map((block) => [block.type, block.from.file])).toEqual([
      ['heading', 'report.pdf'],
      ['paragraph', 'report.pdf'],
    ]);
    expect(writeMarkdown(document)).toBe(MARKDOWN);
  });

  it('lets the caller refuse what it would parse, by its source and size, before parsing it', async () => {
    await storage.put(documentPath(JOB), Buffer.from('{"version":1,"blocks":[]}', 'utf8'));
    const seen: [string, number][] = [];
    const refuse = (source: string, bytes: number) => {
      seen.push([source, bytes]);
      throw new Error('too large');
    };
    await expect(loadStoredResult(storage, job, refuse)).rejects.toThrow('too large');
    await storage.deletePrefix(documentPath(JOB));
    await expect(loadStoredResult(storage, job, refuse)).rejects.toThrow('too large');
    expect(seen).toEqual([
      ['document.json', 25],
      ['result.md', Buffer.byteLength(MARKDOWN)],
    ]);
  });
});
