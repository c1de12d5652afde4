import {
  contentTypeFor,
  extensionFor,
  isoUtc,
  mailboxList,
  mailboxText,
  messageFileName,
  referencedContentIds,
  safeFileName,
  withUniqueNames,
} from './email-message';

describe('attachment names', () => {
  it('keeps a file name without its folders or control characters', () => {
    expect(safeFileName('C:\\Users\\bob\\report.pdf')).toBe('report.pdf');
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('bad\u0000\u0007name.txt')).toBe('badname.txt');
    expect(safeFileName('folder/')).toBeUndefined();
    expect(safeFileName('..')).toBeUndefined();
    expect(safeFileName('   ')).toBeUndefined();
  });

  it('shortens a very long name, keeping its extension', () => {
    const name = safeFileName(`${'가'.repeat(300)}.docx`)!;
    expect(name).toHaveLength(150);
    expect(name.endsWith('.docx')).toBe(true);
  });

  it('names an attached message after its subject, or by its number', () => {
    expect(messageFileName('Re: Q3 plan / budget', 2, 'eml')).toBe('Re: Q3 plan _ budget.eml');
    expect(messageFileName('notes.msg', 1, 'msg')).toBe('notes.msg');
    expect(messageFileName(undefined, 3, 'msg')).toBe('attachment-3.msg');
  });

  it('makes names unique without regard to case', () => {
    const content = Buffer.alloc(0);
    const names = withUniqueNames(
      ['report.pdf', 'Report.pdf', 'report.pdf', 'README'].map((name) => ({ name, contentType: 'x', content })),
    ).map((a) => a.name);
    expect(names).toEqual(['report.pdf', 'Report (2).pdf', 'report (3).pdf', 'README']);
  });

  it('maps content types to extensions and back', () => {
    expect(extensionFor('Application/PDF; name="x"')).toBe('pdf');
    expect(extensionFor('application/x-unknown')).toBe('bin');
    expect(contentTypeFor('photo.JPEG')).toBe('image/jpeg');
    expect(contentTypeFor('sheet.xlsx')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(contentTypeFor('noextension')).toBe('application/octet-stream');
  });
});

describe('header values', () => {
  it('writes mailboxes as people read them', () => {
    expect(mailboxText({ name: 'Alice Example', address: 'alice@example.com' })).toBe(
      'Alice Example <alice@example.com>',
    );
    expect(mailboxText({ name: 'alice@example.com', address: 'alice@example.com' })).toBe('alice@example.com');
    expect(mailboxText({ name: "'Bob'", address: '<bob@example.com>' })).toBe('Bob <bob@example.com>');
    expect(mailboxText({ name: 'Doe, John "JD"', address: 'john@example.com' })).toBe(
      '"Doe, John \\"JD\\"" <john@example.com>',
    );
    expect(mailboxText({ name: '  ' })).toBeUndefined();
    expect(mailboxList([{ address: 'a@example.com' }, {}, { name: 'B' }])).toBe('a@example.com, B');
    expect(mailboxList([])).toBeUndefined();
  });

  it('writes times in UTC to the second', () => {
    expect(isoUtc(new Date('Tue, 02 Jan 2024 12:04:05 +0900'))).toBe('2024-01-02T03:04:05Z');
    expect(isoUtc(new Date('not a date'))).toBeUndefined();
  });

  it('finds the content ids an HTML body shows', () => {
    const ids = referencedContentIds('<img src="cid:Logo@Example"><img src=\'cid:a%40b\'> cid:plain)');
    expect([...ids]).toEqual(['logo@example', 'a@b', 'plain']);
  });
});
