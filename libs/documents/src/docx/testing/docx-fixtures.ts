import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip } from '../../../../../test/support/archives';
import { extractDocx } from '../extract-docx';

/** The `docx` package, which builds Word documents for the specs. */
export type DocxModule = typeof import('docx');

/** A 1×1 transparent PNG. */
export const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** The WordprocessingML namespace declaration, for hand-written document parts. */
export const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A minimal package whose main document part is the given XML. */
export function packageWith(documentXml: string): Buffer {
  return makeZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    { name: 'word/document.xml', data: documentXml },
  ]);
}

/** A temporary folder of .docx files for one spec file: `open` in beforeAll, `close` in afterAll. */
export class DocxFixtures {
  private folder = '';
  private count = 0;

  async open(): Promise<void> {
    this.folder = await mkdtemp(join(tmpdir(), 'docconv-docx-'));
  }

  async close(): Promise<void> {
    await rm(this.folder, { recursive: true, force: true });
  }

  /** The bytes as a new file of the folder; its path. */
  async write(bytes: Buffer): Promise<string> {
    const path = join(this.folder, `${++this.count}.docx`);
    await writeFile(path, bytes);
    return path;
  }

  /** A document built with the `docx` package, as a new file of the folder; its path. */
  async build(build: (docx: DocxModule) => InstanceType<DocxModule['Document']>): Promise<string> {
    const docx = await import('docx');
    return this.write(await docx.Packer.toBuffer(build(docx)));
  }

  /** A document built with the `docx` package, converted: its Markdown. */
  async markdown(build: (docx: DocxModule) => InstanceType<DocxModule['Document']>): Promise<string> {
    return extractDocx(await this.build(build), 'fixture.docx');
  }
}
