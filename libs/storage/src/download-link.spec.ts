import { attachmentDisposition, contentTypeOf, resolveTtlSeconds, safeDownloadName } from './download-link';

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

describe('resolveTtlSeconds', () => {
  it('takes the lifetime asked for, else the default', () => {
    expect(resolveTtlSeconds(60, 900)).toBe(60);
    expect(resolveTtlSeconds(undefined, 900)).toBe(900);
  });

  it.each([0, -5, 1.5, 7 * 24 * 3600 + 1])('refuses %d seconds', (ttl) => {
    expect(() => resolveTtlSeconds(ttl, 900)).toThrow(RangeError);
  });
});
