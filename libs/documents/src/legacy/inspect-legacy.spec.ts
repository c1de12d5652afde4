import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeZip } from '../../../../test/support/archives';
import type { OfficeViaLibreOffice } from '../formats';
import { assertNoMacros, countViaMetadata } from './inspect-legacy';
import {
  biffWorkbook,
  compoundFile,
  currentUser,
  powerPointDocument,
  propertySet,
  wordDocument,
} from './testing/compound-builder';
import { makeOdf } from './testing/odf-builder';

let folder: string;
let count = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'docconv-legacy-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function save(bytes: Buffer | string, kind: OfficeViaLibreOffice): Promise<string> {
  const path = join(folder, `${++count}.${kind}`);
  await writeFile(path, bytes);
  return path;
}

/** The DomainError a call rejects with. */
async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

const paragraphs = (n: number, text: string): string => `<text:p>${text}</text:p>`.repeat(n);
const sheet = (name: string, cells: string): string =>
  `<table:table table:name="${name}"><table:table-row>${cells}</table:table-row></table:table>`;
const valueCell = '<table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell>';

describe('countViaMetadata: OpenDocument', () => {
  it('takes an ODT’s stored page count', async () => {
    const path = await save(makeOdf({ type: 'text', body: paragraphs(1, 'Short.'), pageCount: 7 }), 'odt');
    expect(await countViaMetadata(path, 'odt', 'report.odt')).toBe(7);
  });

  it('counts an ODT without a stored count from its text, 3,000 readable characters a page', async () => {
    const body = paragraphs(70, 'x'.repeat(99));
    const path = await save(makeOdf({ type: 'text', body, pageCount: 0 }), 'odt');
    // 70 paragraphs of 99 characters, a space between them: 6,999 readable characters.
    expect(await countViaMetadata(path, 'odt', 'report.odt')).toBe(3);
  });

  it('counts the sheets of an ODS that hold something, at least one', async () => {
    const body = [sheet('A', valueCell), sheet('Empty', '<table:table-cell/>'), sheet('B', valueCell)].join('');
    expect(await countViaMetadata(await save(makeOdf({ type: 'spreadsheet', body }), 'ods'), 'ods', 'b.ods')).toBe(2);
    const empty = makeOdf({ type: 'spreadsheet', body: sheet('Empty', '<table:table-cell/>') });
    expect(await countViaMetadata(await save(empty, 'ods'), 'ods', 'b.ods')).toBe(1);
  });

  it('counts the slides of an ODP', async () => {
    const body = '<draw:page draw:name="1"/><draw:page draw:name="2"></draw:page><draw:page draw:name="3"/>';
    expect(await countViaMetadata(await save(makeOdf({ type: 'presentation', body }), 'odp'), 'odp', 'd.odp')).toBe(3);
  });

  it('refuses an ODF zip bomb with the 413 of the decompression limits', async () => {
    const bomb = makeZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
      { name: 'content.xml', data: `<office:document-content>${'a'.repeat(8 * 1024 * 1024)}` },
    ]);
    const error = await refusal(
      countViaMetadata(await save(bomb, 'odt'), 'odt', 'bomb.odt', { maxRatio: 100, maxTotalBytes: 1 << 30 }),
    );
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toContain('bomb.odt');
  });

  it('refuses a file that is not a zip as damaged', async () => {
    const error = await refusal(countViaMetadata(await save('not a zip', 'odt'), 'odt', 'broken.odt'));
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toBe(
      'broken.odt is a damaged OpenDocument text file. Check that it opens and upload it again.',
    );
  });
});

describe('assertNoMacros: OpenDocument', () => {
  const module = (source: string): { name: string; data: string } => ({
    name: 'Basic/Standard/Module1.xml',
    data: `<?xml version="1.0" encoding="UTF-8"?><script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">${source}</script:module>`,
  });

  it('refuses an ODT with a Basic module that has code', async () => {
    const odt = makeOdf({
      type: 'text',
      body: paragraphs(1, 'Hi'),
      extra: [module('Sub Main\n  Shell(&quot;calc&quot;)\nEnd Sub')],
    });
    const error = await refusal(assertNoMacros(await save(odt, 'odt'), 'odt', 'letter.odt'));
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toBe(
      'letter.odt contains macros. docconv does not open files with macros; save it without macros (as .docx) and upload that.',
    );
  });

  it('lets through the empty Sub Main LibreOffice leaves in a library nobody wrote', async () => {
    const odt = makeOdf({
      type: 'text',
      body: paragraphs(1, 'Hi'),
      extra: [module('REM  *****  BASIC  *****\n\nSub Main\n\nEnd Sub\n')],
    });
    await expect(assertNoMacros(await save(odt, 'odt'), 'odt', 'letter.odt')).resolves.toBeUndefined();
  });

  it('refuses script files and events bound to scripts', async () => {
    const scripted = makeOdf({
      type: 'spreadsheet',
      body: sheet('A', valueCell),
      extra: [{ name: 'Scripts/python/run.py', data: 'import os' }],
    });
    await expect(assertNoMacros(await save(scripted, 'ods'), 'ods', 'b.ods')).rejects.toThrow(/as \.xlsx/);
    const bound = makeOdf({
      type: 'presentation',
      body: '<draw:page draw:name="1"><office:event-listeners><presentation:event-listener script:event-name="dom:click" presentation:action="execute" xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;location=application"/></office:event-listeners></draw:page>',
    });
    await expect(assertNoMacros(await save(bound, 'odp'), 'odp', 'd.odp')).rejects.toThrow(/contains macros/);
  });

  it('refuses a password-protected ODF in both checks', async () => {
    const odt = makeOdf({
      type: 'text',
      body: paragraphs(1, 'Hi'),
      manifestLines: [
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry>',
      ],
    });
    const path = await save(odt, 'odt');
    const message = 'secret.odt is password-protected. Remove the password and upload it again.';
    expect((await refusal(assertNoMacros(path, 'odt', 'secret.odt'))).message).toBe(message);
    expect((await refusal(countViaMetadata(path, 'odt', 'secret.odt'))).message).toBe(message);
  });

  it('lets a plain ODT through', async () => {
    const odt = makeOdf({
      type: 'text',
      body: '<text:p><text:a xlink:href="https://example.com">link</text:a></text:p>',
    });
    await expect(assertNoMacros(await save(odt, 'odt'), 'odt', 'plain.odt')).resolves.toBeUndefined();
  });
});

describe('Office 97–2003', () => {
  it('takes a DOC’s page count from its SummaryInformation, else counts its text', async () => {
    const stored = compoundFile({
      WordDocument: wordDocument(),
      '\u0005SummaryInformation': propertySet({ 0x0e: 12 }),
    });
    expect(await countViaMetadata(await save(stored, 'doc'), 'doc', 'a.doc')).toBe(12);
    const unstored = compoundFile({ WordDocument: wordDocument({ characters: 6001 }) });
    expect(await countViaMetadata(await save(unstored, 'doc'), 'doc', 'a.doc')).toBe(3);
  });

  it('refuses a DOC with a VBA project (the Macros storage)', async () => {
    const doc = compoundFile({
      WordDocument: wordDocument(),
      'Macros/VBA/dir': Buffer.from([1, 2, 3]),
      'Macros/VBA/_VBA_PROJECT': Buffer.from([1, 2, 3]),
    });
    const error = await refusal(assertNoMacros(await save(doc, 'doc'), 'doc', 'invoice.doc'));
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toBe(
      'invoice.doc contains macros. docconv does not open files with macros; save it without macros (as .docx) and upload that.',
    );
  });

  it('refuses a DOC encrypted with a password (FIB fEncrypted)', async () => {
    const doc = compoundFile({ WordDocument: wordDocument({ encrypted: true }) });
    const error = await refusal(countViaMetadata(await save(doc, 'doc'), 'doc', 'secret.doc'));
    expect(error.message).toBe('secret.doc is password-protected. Remove the password and upload it again.');
  });

  it('counts the worksheets of an XLS that hold a value; refuses FILEPASS and macro sheets', async () => {
    const sheets = [{ hasValue: true }, { hasValue: false }, { hasValue: true }, { type: 2, hasValue: false }];
    expect(
      await countViaMetadata(await save(compoundFile({ Workbook: biffWorkbook(sheets) }), 'xls'), 'xls', 'b.xls'),
    ).toBe(2);
    const encrypted = compoundFile({ Workbook: biffWorkbook(sheets, { encrypted: true }) });
    await expect(assertNoMacros(await save(encrypted, 'xls'), 'xls', 'b.xls')).rejects.toThrow(/password-protected/);
    const xlm = compoundFile({ Workbook: biffWorkbook([{ hasValue: true }, { type: 1, hasValue: true }]) });
    await expect(assertNoMacros(await save(xlm, 'xls'), 'xls', 'b.xls')).rejects.toThrow(/contains macros.*\.xlsx/);
    const vba = compoundFile({ Workbook: biffWorkbook(sheets), '_VBA_PROJECT_CUR/VBA/dir': Buffer.from([1]) });
    await expect(assertNoMacros(await save(vba, 'xls'), 'xls', 'b.xls')).rejects.toThrow(/contains macros/);
  });

  it('counts a PPT’s slides from DocumentSummaryInformation, else from its slide list', async () => {
    const stored = compoundFile({
      'PowerPoint Document': powerPointDocument(3),
      'Current User': currentUser(false),
      '\u0005DocumentSummaryInformation': propertySet({ 0x07: 5 }),
    });
    expect(await countViaMetadata(await save(stored, 'ppt'), 'ppt', 'd.ppt')).toBe(5);
    const listed = compoundFile({ 'PowerPoint Document': powerPointDocument(3), 'Current User': currentUser(false) });
    expect(await countViaMetadata(await save(listed, 'ppt'), 'ppt', 'd.ppt')).toBe(3);
  });

  it('refuses a PPT with a VBA project or an encrypted one', async () => {
    const vba = compoundFile({ 'PowerPoint Document': powerPointDocument(1, { vba: true }) });
    await expect(assertNoMacros(await save(vba, 'ppt'), 'ppt', 'd.ppt')).rejects.toThrow(/contains macros.*\.pptx/);
    const encrypted = compoundFile({ 'PowerPoint Document': powerPointDocument(1), 'Current User': currentUser(true) });
    await expect(countViaMetadata(await save(encrypted, 'ppt'), 'ppt', 'd.ppt')).rejects.toThrow(/password-protected/);
  });

  it('refuses an encrypted OOXML package named as a legacy file, and a file that is no compound file', async () => {
    const ooxml = compoundFile({ EncryptedPackage: Buffer.alloc(64), EncryptionInfo: Buffer.alloc(64) });
    await expect(assertNoMacros(await save(ooxml, 'doc'), 'doc', 'a.doc')).rejects.toThrow(/password-protected/);
    const error = await refusal(assertNoMacros(await save('plain text', 'xls'), 'xls', 'a.xls'));
    expect(error.message).toBe('a.xls is a damaged Excel 97–2003 file. Check that it opens and upload it again.');
  });
});

describe('RTF', () => {
  it('takes \\nofpages from the document information, else counts the text', async () => {
    const stored = '{\\rtf1\\ansi{\\info{\\title T}\\nofpages4}Hello.\\par}';
    expect(await countViaMetadata(await save(stored, 'rtf'), 'rtf', 'a.rtf')).toBe(4);
    const text = `{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}${'word '.repeat(1300)}\\par}`;
    expect(await countViaMetadata(await save(text, 'rtf'), 'rtf', 'a.rtf')).toBe(3);
  });

  it('holds no macros', async () => {
    const rtf = '{\\rtf1{\\object\\objemb{\\*\\objdata 0102}}Text\\par}';
    await expect(assertNoMacros(await save(rtf, 'rtf'), 'rtf', 'a.rtf')).resolves.toBeUndefined();
  });
});
