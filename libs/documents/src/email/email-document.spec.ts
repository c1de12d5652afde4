import { writeMarkdown } from '@docconv/model';
import { emailDocument } from './email-document';
import type { EmailMessage } from './email-message';

/** The Markdown the one writer makes of a message's document. */
const emailMarkdown = (message: EmailMessage): string => writeMarkdown(emailDocument(message, 'mail.eml'));

const message = (fields: Partial<EmailMessage>): EmailMessage => ({ attachments: [], ...fields });

describe('emailDocument', () => {
  it('writes the header fields as a one-column table, the subject as its header row, then the body', () => {
    expect(
      emailMarkdown(
        message({
          from: 'Alice Example <alice@example.com>',
          to: 'Bob Example <bob@example.com>, carol@example.com',
          cc: 'Dave <dave@example.com>',
          date: '2024-01-02T03:04:05Z',
          subject: 'Quarterly report',
          text: 'Hello Bob,\n\nThe report is attached.',
        }),
      ),
    ).toBe(
      [
        '| Subject: Quarterly report |',
        '| --- |',
        '| From: Alice Example \\<alice@example.com\\> |',
        '| To: Bob Example \\<bob@example.com\\>, carol@example.com |',
        '| Cc: Dave \\<dave@example.com\\> |',
        '| Date: 2024-01-02T03:04:05Z |',
        '',
        'Hello Bob,',
        '',
        'The report is attached.',
        '',
      ].join('\n'),
    );
  });

  it('leaves out missing fields; without a subject the first field heads the table', () => {
    expect(emailMarkdown(message({ from: 'alice@example.com', date: '2024-01-02T03:04:05Z' }))).toBe(
      '| From: alice@example.com |\n| --- |\n| Date: 2024-01-02T03:04:05Z |\n',
    );
    expect(emailMarkdown(message({}))).toBe('');
    expect(emailMarkdown(message({ text: 'Only a body.' }))).toBe('Only a body.\n');
  });

  it('keeps header values literal: pipes, emphasis, links and angle brackets are escaped, line breaks joined', () => {
    const markdown = emailMarkdown(
      message({
        subject: 'Re: [draft](x) Q3 | *urgent*\r\n  second line',
        from: '"Doe, John" <john@example.com>',
        to: 'a\\<b@example.com>',
      }),
    );
    expect(markdown).toContain('| Subject: Re: [draft\\](x) Q3 \\| \\*urgent\\* second line |');
    expect(markdown).toContain('| From: "Doe, John" \\<john@example.com\\> |');
    expect(markdown).toContain('| To: a\\\\\\<b@example.com\\> |');
  });

  it('prefers the HTML body to the text body', () => {
    const markdown = emailMarkdown(
      message({ subject: 'Both', html: '<p>From the <b>HTML</b> part.</p>', text: 'From the text part.' }),
    );
    expect(markdown).toContain('From the **HTML** part.');
    expect(markdown).not.toContain('text part');
  });
});

describe('a text body', () => {
  it('keeps line breaks as hard breaks and blank lines as paragraphs, trimming lines', () => {
    const markdown = emailMarkdown({
      text: 'Best regards,\r\n    Alice\r\n\r\n\r\n  P.S. see below  ',
      attachments: [],
    });
    expect(markdown).toBe('Best regards,  \nAlice\n\nP.S. see below\n');
  });

  it('escapes what would read as Markdown, and drops control characters', () => {
    const markdown = emailMarkdown({
      text: '# one\n> quoted\n1. item\n--\n`code` <b>x</b> \u0007bell',
      attachments: [],
    });
    expect(markdown).toBe('\\# one  \n\\> quoted  \n1\\. item  \n\\--  \n\\`code\\` \\<b>x\\</b> bell\n');
  });
});

describe('the message document', () => {
  it('holds the header fields as plain, unescaped cells of a one-column table, then the body, each from its file', () => {
    const document = emailDocument(
      message({ subject: 'Re: *urgent*', from: 'Alice <alice@example.com>', text: '# one\ntwo' }),
      'mail.eml',
    );
    expect(document.blocks).toEqual([
      {
        type: 'table',
        headerRows: 1,
        from: { file: 'mail.eml' },
        rows: [
          [{ content: [{ kind: 'text', text: 'Subject: Re: *urgent*' }], rowspan: 1, colspan: 1 }],
          [{ content: [{ kind: 'text', text: 'From: Alice <alice@example.com>' }], rowspan: 1, colspan: 1 }],
        ],
      },
      {
        type: 'paragraph',
        content: [{ kind: 'text', text: '# one' }, { kind: 'break' }, { kind: 'text', text: 'two' }],
        from: { file: 'mail.eml' },
      },
    ]);
  });

  it('reads an HTML body into blocks that keep the HTML reader’s Markdown, a blank line after the table', () => {
    const document = emailDocument(
      message({ subject: 'S', html: '<h2>Title</h2><p>A <b>bold</b> word.</p>' }),
      'm.eml',
    );
    expect(document.blocks.map((block) => [block.type, block.from.file])).toEqual([
      ['table', 'm.eml'],
      ['heading', 'm.eml'],
      ['paragraph', 'm.eml'],
    ]);
    expect(writeMarkdown(document)).toBe('| Subject: S |\n| --- |\n\n## Title\n\nA **bold** word.\n');
  });
});
