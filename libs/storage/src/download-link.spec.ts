import {
  attachmentDisposition,
  contentTypeOf,
  downloadName,
  MAX_DOWNLOAD_NAME_BYTES,
  resolveTtlSeconds,
  safeDownloadName,
} from './download-link';

describe('contentTypeOf', () => {
  it.each([
    ['results/j/result.md', 'text/markdown; charset=utf-8'],
    ['results/j/pages.json', 'application/json; charset=utf-8'],
    ['results/j/result.XLSX', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['results/j/result.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['results/j/result.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['inputs/j/1-scan.pdf', 'application/octet-stream'],
    ['inputs/j/no-extension', 'application/octet-stream'],
  ])('serves %s as %s', (path, type) => {
    expect(contentTypeOf(path)).toBe(type);
  });
});

describe('attachmentDisposition', () => {
  it('names an ASCII file plainly', () => {
    expect(attachmentDisposition('Report 2026.md')).toBe('attachment; filename="Report 2026.md"');
  });

  it('keeps a non-ASCII name in filename* with an ASCII fallback', () => {
    expect(attachmentDisposition('보고서 "final".md')).toBe(
      `attachment; filename="___ _final_.md"; filename*=UTF-8''%EB%B3%B4%EA%B3%A0%EC%84%9C%20_final_.md`,
    );
  });

  it('drops characters that hide or reorder what a name shows, and what no file system allows', () => {
    // U+202E (right-to-left override) would show `report‮fdp.exe` as `reportexe.pdf`.
    expect(safeDownloadName('report\u202efdp.exe')).toBe('reportfdp.exe');
    expect(safeDownloadName('in\u200bvoice\ufeff.md')).toBe('invoice.md');
    expect(safeDownloadName('a/b\\c:d*e?"f"<g>|.md')).toBe('a_b_c_d_e__f__g__.md');
    expect(safeDownloadName('  ..hidden. ')).toBe('hidden');
    expect(safeDownloadName('CON.md')).toBe('_CON.md');
    expect(safeDownloadName('\u202e\u200b')).toBe('download');
    expect(attachmentDisposition('report\u202efdp.exe')).toBe('attachment; filename="reportfdp.exe"');
  });
});

describe('safeDownloadName', () => {
  it.each([
    'CON',
    'con.md',
    'PRN.txt',
    'AUX',
    'NUL.json',
    'COM1.docx',
    'lpt9.xlsx',
    'COM\u00b9.md',
    'CON .md',
    'CONIN$.md',
  ])('defuses the Windows device name %s', (name) => {
    expect(safeDownloadName(name)).toBe(`_${name}`);
  });

  it('keeps names that only start like a device name', () => {
    expect(safeDownloadName('CONTRACT.md')).toBe('CONTRACT.md');
    expect(safeDownloadName('company.md')).toBe('company.md');
  });

  it('removes control characters, line breaks and tabs', () => {
    expect(safeDownloadName('line\nbreak\r\t\u0000\u007f.md')).toBe('linebreak.md');
  });

  it('trims the trailing dots and spaces Windows drops', () => {
    expect(safeDownloadName('report. . ')).toBe('report');
    expect(safeDownloadName('...')).toBe('download');
  });

  it('caps a long name in UTF-8 bytes and keeps its extension', () => {
    const korean = safeDownloadName(`${'보고서'.repeat(100)}.xlsx`);
    expect(Buffer.byteLength(korean)).toBeLessThanOrEqual(MAX_DOWNLOAD_NAME_BYTES);
    expect(korean).toMatch(/^(보고서)+보?고?\.xlsx$/);
    const ascii = safeDownloadName(`${'a'.repeat(300)} .md`);
    expect(ascii).toBe(`${'a'.repeat(MAX_DOWNLOAD_NAME_BYTES - 3)}.md`);
  });

  it('changes nothing the second time', () => {
    for (const name of ['a/b\\c.md', `${'가'.repeat(90)}.docx`, 'CON.md', ' x. ', '보고서 "final".md']) {
      expect(safeDownloadName(safeDownloadName(name))).toBe(safeDownloadName(name));
    }
  });
});

describe('downloadName', () => {
  it('replaces the title extension with the download format', () => {
    expect(downloadName('Report.pdf', 'md')).toBe('Report.md');
    expect(downloadName('bundle.zip', 'docx')).toBe('bundle.docx');
    expect(downloadName('notes', 'json')).toBe('notes.json');
  });

  it('names a job of several files by the first and how many more, without its extension', () => {
    expect(downloadName('report.pdf (+1 more)', 'pptx')).toBe('report-and-1-more.pptx');
    expect(downloadName('mail.eml (+2 more)', 'md')).toBe('mail-and-2-more.md');
    expect(downloadName('notes (+3 more)', 'docx')).toBe('notes-and-3-more.docx');
    expect(downloadName('회의록.hwp (+1 more)', 'hwpx')).toBe('회의록-and-1-more.hwpx');
  });

  it('never carries a folder of the title into the name', () => {
    expect(downloadName('bundle.zip/a.pdf (+5 more)', 'md')).toBe('bundle.zip_a-and-5-more.md');
    expect(downloadName('..\\..\\evil.pdf', 'md')).toBe('_.._evil.md');
  });

  it('keeps a Korean title and makes reserved or empty titles usable', () => {
    expect(downloadName('회의록 2026.hwp', 'hwpx')).toBe('회의록 2026.hwpx');
    expect(downloadName('nul.pdf', 'md')).toBe('_nul.md');
    expect(downloadName('.pdf', 'md')).toBe('result.md');
    expect(downloadName('report. .pdf', 'md')).toBe('report.md');
  });

  it('gives a header with an ASCII fallback and the UTF-8 name', () => {
    expect(attachmentDisposition(downloadName('회의록.hwp', 'md'))).toBe(
      `attachment; filename="___.md"; filename*=UTF-8''%ED%9A%8C%EC%9D%98%EB%A1%9D.md`,
    );
  });
});

describe('resolveTtlSeconds', () => {
  it('takes the lifetime asked for, else the default', () => {
    expect(resolveTtlSeconds(60, 900)).toBe(60);
    expect(resolveTtlSeconds(undefined, 900)).toBe(900);
  });

  it.each([0, -5, 1.5, 7 * 24 * 3600 + 1])('refuses %d seconds', (ttl) => {
    expect(() => resolveTtlSeconds(ttl, 900)).toThrow(RangeError);
  });
});
