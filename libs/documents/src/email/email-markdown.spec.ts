import { emailMarkdown } from './email-markdown';
import type { EmailMessage } from './email-message';

const message = (fields: Partial<EmailMessage>): EmailMessage => ({ attachments: [], ...fields });

describe('emailMarkdown', () => {
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
