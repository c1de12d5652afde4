import { DomainError } from '@docconv/contracts';
import { randomBytes } from 'node:crypto';
import { makeZip } from '../../../../test/support/archives';
import { extractDocx } from './extract-docx';
import { DocxFixtures, packageWith, W } from './testing/docx-fixtures';

const fixtures = new DocxFixtures();
beforeAll(() => fixtures.open());
afterAll(() => fixtures.close());

const write = (bytes: Buffer): Promise<string> => fixtures.write(bytes);

describe('extractDocx', () => {
  describe('refuses what is not a readable Word document', () => {
    const refused = async (bytes: Buffer): Promise<DomainError> => {
      const error: unknown = await extractDocx(await write(bytes), 'broken.docx').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      const domain = error as DomainError;
      expect(domain.code).toBe('file_processing_failed');
      expect(domain.message).toMatch(/^broken\.docx could not be read as a Word document: .+\. .+\.$/);
      return domain;
    };

    it('random bytes', async () => {
      const error = await refused(randomBytes(4096));
      expect(error.message).toContain('not a .docx file');
    });

    it('a truncated document', async () => {
      const docx = await import('docx');
      const whole = await docx.Packer.toBuffer(
        new docx.Document({ sections: [{ children: [new docx.Paragraph('Some text')] }] }),
      );
      const error = await refused(whole.subarray(0, Math.floor(whole.length / 2)));
      expect(error.message).toContain('damaged or incomplete');
    });

    it('a ZIP archive without a Word document in it', async () => {
      const error = await refused(makeZip([{ name: 'notes.txt', data: 'hello' }]));
      expect(error.message).toContain('not a Word document');
    });

    it('a document part that expands like a ZIP bomb (413, naming the file and the part)', async () => {
      const paragraphs = '<w:p/>'.repeat(400_000);
      const error: unknown = await extractDocx(
        await write(packageWith(`<w:document ${W}><w:body>${paragraphs}</w:body></w:document>`)),
        'bomb.docx',
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('payload_too_large');
      expect((error as DomainError).message).toMatch(
        /^bomb\.docx: its part word\/document\.xml expands more than 200:1/,
      );
    });

    it('a document part with a document type declaration (entity expansion)', async () => {
      const laughs = '<!DOCTYPE d [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>';
      const error = await refused(packageWith(`${laughs}<w:document ${W}><w:body><w:p/></w:body></w:document>`));
      expect(error.message).toContain('document type declarations are not allowed');
    });

    it('a document part that is not well-formed XML', async () => {
      const error = await refused(packageWith(`<w:document ${W}><w:body><w:p><w:r><w:t>cut`));
      expect(error.message).toContain('word/document.xml is not well-formed XML');
    });
  });
});
