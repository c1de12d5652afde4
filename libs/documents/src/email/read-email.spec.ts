import { DomainError } from '@docconv/contracts';
import iconv from 'iconv-lite';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMarkdown } from '@docconv/model';
import { countEmailPages, extractEmail as readEmailDocument, readEmail, type EmailKind } from './read-email';

/** An e-mail file's Markdown, as the one writer makes it from the file's document. */
const extractEmail = async (path: string, kind: EmailKind, displayName: string): Promise<string> =>
  writeMarkdown(await readEmailDocument(path, kind, displayName));
import { compressedRtf, FIXED, msgFile, TAG, type MsgMessage } from './testing/msg-builder';

/** Control characters other than tab and line breaks. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const wrap = (base64: string) => base64.replace(/.{1,76}/g, '$&\r\n');

const PDF_BYTES = Buffer.from('%PDF-1.4\n% 보고서 bytes\n%%EOF\n');
const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const INNER_MESSAGE = [
  'From: Carol Example <carol@example.com>',
  'To: Bob Example <bob@example.com>',
  'Subject: Original request',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'The inner message body.',
  '',
].join('\r\n');

/**
 * A Korean message as a mail program sends it: encoded-word headers, an EUC-KR text part and a UTF-8
 * HTML part as alternatives, a logo the HTML shows by `cid:`, a PDF named in RFC 2231 form, an
 * attached message and a file name carrying folders.
 */
const KOREAN_EML = [
  `From: =?UTF-8?B?${b64('김철수')}?= <chulsoo@example.kr>`,
  'To: "Bob Example" <bob@example.com>, Carol <carol@example.com>',
  'Cc: dave@example.com',
  'Date: Tue, 02 Jan 2024 12:04:05 +0900',
  `Subject: =?UTF-8?B?${b64('분기 보고서 검토 요청')}?=`,
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: multipart/related; boundary="related"',
  '',
  '--related',
  'Content-Type: multipart/alternative; boundary="alternative"',
  '',
  '--alternative',
  'Content-Type: text/plain; charset=euc-kr',
  'Content-Transfer-Encoding: base64',
  '',
  wrap(iconv.encode('평문 본문입니다.', 'euc-kr').toString('base64')),
  '--alternative',
  'Content-Type: text/html; charset=utf-8',
  'Content-Transfer-Encoding: base64',
  '',
  wrap(
    b64(
      '<html><body><p>안녕하세요, <b>첨부</b>를 확인해 주세요.</p><p><img src="cid:logo@example.kr"></p></body></html>',
    ),
  ),
  '--alternative--',
  '',
  '--related',
  'Content-Type: image/png',
  'Content-ID: <logo@example.kr>',
  'Content-Disposition: inline; filename="logo.png"',
  'Content-Transfer-Encoding: base64',
  '',
  wrap(b64(PNG_BYTES)),
  '--related--',
  '',
  '--outer',
  'Content-Type: application/pdf',
  "Content-Disposition: attachment; filename*=UTF-8''%EB%B3%B4%EA%B3%A0%EC%84%9C.pdf",
  'Content-Transfer-Encoding: base64',
  '',
  wrap(b64(PDF_BYTES)),
  '--outer',
  'Content-Type: message/rfc822',
  'Content-Disposition: attachment',
  '',
  INNER_MESSAGE,
  '--outer',
  'Content-Type: application/octet-stream',
  'Content-Disposition: attachment; filename="C:\\\\Users\\\\bob\\\\secret.txt"',
  'Content-Transfer-Encoding: base64',
  '',
  wrap(b64('secret file text')),
  '--outer--',
  '',
].join('\r\n');

/** A minimal Outlook item written with `cfb`: Unicode properties, a recipient, an attachment and an embedded message. */
const SIMPLE_MSG: MsgMessage = {
  streams: {
    [TAG.messageClass]: 'IPM.Note',
    [TAG.subject]: '분기 보고서',
    [TAG.body]: 'Hello Bob,\r\n\r\nThis is the body.',
    [TAG.senderName]: 'Alice Example',
    [TAG.senderSmtp]: 'alice@example.com',
  },
  fixed: { [FIXED.clientSubmitTime]: new Date('2024-01-02T03:04:05Z') },
  recipients: [
    { streams: { [TAG.displayName]: 'Bob Example', [TAG.smtpAddress]: 'bob@example.com' } },
    {
      streams: { [TAG.displayName]: 'Carol', [TAG.smtpAddress]: 'carol@example.com' },
      fixed: { [FIXED.recipientType]: 2 },
    },
  ],
  attachments: [
    { streams: { [TAG.attachLongFilename]: 'report.pdf', [TAG.attachData]: PDF_BYTES } },
    {
      streams: { [TAG.displayName]: 'Inner note' },
      fixed: { [FIXED.attachMethod]: 5 },
      embedded: {
        streams: { [TAG.messageClass]: 'IPM.Note', [TAG.subject]: 'Inner note', [TAG.body]: 'Inner body text.' },
      },
    },
  ],
};

describe('readEmail and extractEmail', () => {
  let folder: string;
  let count = 0;
  const file = async (kind: EmailKind, content: string | Buffer): Promise<string> => {
    const path = join(folder, `mail-${++count}.${kind}`);
    await writeFile(path, content);
    return path;
  };
  const refusal = async (promise: Promise<unknown>): Promise<DomainError> => {
    const error: unknown = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-email-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  describe('EML', () => {
    it('decodes encoded-word headers and every part’s character set, preferring the HTML body', async () => {
      const message = await readEmail(await file('eml', KOREAN_EML), 'eml', 'mail.eml');
      expect(message).toMatchObject({
        from: '김철수 <chulsoo@example.kr>',
        to: 'Bob Example <bob@example.com>, Carol <carol@example.com>',
        cc: 'dave@example.com',
        date: '2024-01-02T03:04:05Z',
        subject: '분기 보고서 검토 요청',
      });
      expect(message.html).toContain('안녕하세요');
      expect(message.text?.trim()).toBe('평문 본문입니다.');

      const markdown = await extractEmail(await file('eml', KOREAN_EML), 'eml', 'mail.eml');
      expect(markdown).toMatch(/^\| Subject: 분기 보고서 검토 요청 \|\n\| --- \|\n/);
      expect(markdown).toContain('| From: 김철수 \\<chulsoo@example.kr\\> |');
      expect(markdown).toContain('| To: Bob Example \\<bob@example.com\\>, Carol \\<carol@example.com\\> |');
      expect(markdown).toContain('| Date: 2024-01-02T03:04:05Z |');
      expect(markdown).toContain('안녕하세요');
      expect(markdown).not.toContain('평문 본문');
    });

    it('hands on attachments with safe names and their bytes, an attached message whole, not the inline logo', async () => {
      const message = await readEmail(await file('eml', KOREAN_EML), 'eml', 'mail.eml');
      expect(message.attachments.map(({ name, contentType }) => ({ name, contentType }))).toEqual([
        { name: '보고서.pdf', contentType: 'application/pdf' },
        { name: 'Original request.eml', contentType: 'message/rfc822' },
        { name: 'secret.txt', contentType: 'text/plain' },
      ]);
      expect(message.attachments[0].content.equals(PDF_BYTES)).toBe(true);
      expect(message.attachments[1].content.toString('utf8')).toBe(INNER_MESSAGE);
      expect(message.attachments[2].content.toString('utf8')).toBe('secret file text');
    });

    it('writes neither attachment names nor their content into the message’s Markdown', async () => {
      const markdown = await extractEmail(await file('eml', KOREAN_EML), 'eml', 'mail.eml');
      for (const absent of ['보고서.pdf', 'secret', 'Original request', 'inner message body', b64(PDF_BYTES)]) {
        expect(markdown).not.toContain(absent);
      }
    });

    it('writes a text body as literal Markdown, keeping its line breaks', async () => {
      const eml = [
        'From: Alice Example <alice@example.com>',
        'To: Bob Example <bob@example.com>',
        'Subject: Notes',
        '',
        'Hello Bob,',
        '',
        '# not a heading',
        '* not a list, 2 * 3 = 6',
        'Best regards,',
        '    Alice',
      ].join('\n');
      const markdown = await extractEmail(await file('eml', eml), 'eml', 'notes.eml');
      expect(markdown).toBe(
        [
          '| Subject: Notes |',
          '| --- |',
          '| From: Alice Example \\<alice@example.com\\> |',
          '| To: Bob Example \\<bob@example.com\\> |',
          '',
          'Hello Bob,',
          '',
          '\\# not a heading  ',
          '\\* not a list, 2 * 3 = 6  ',
          'Best regards,  ',
          'Alice',
          '',
        ].join('\n'),
      );
    });

    it('leaves control characters out of the Markdown', async () => {
      const eml = [
        'From: Alice <alice@example.com>',
        'Subject: =?UTF-8?Q?Bell=07and=1Bescape?=',
        '',
        'Line\u0001one\u001b[31m',
        'Tab\tkept',
      ].join('\r\n');
      const markdown = await extractEmail(await file('eml', eml), 'eml', 'control.eml');
      expect(markdown).not.toMatch(CONTROL);
      expect(markdown).toContain('Subject: Bell and escape');
      expect(markdown).toContain('Lineone[31m');
    });

    it('refuses a file with no e-mail header fields, and an empty one', async () => {
      for (const content of ['just some words\nand more\n', '']) {
        const error = await refusal(readEmail(await file('eml', content), 'eml', 'notes.eml'));
        expect(error.code).toBe('unsupported_format');
        expect(error.message).toMatch(/^notes\.eml is not a readable e-mail message: /);
      }
    });

    it('refuses an attachment larger than the limit with a 413', async () => {
      const error = await refusal(
        readEmail(await file('eml', KOREAN_EML), 'eml', 'mail.eml', { maxAttachmentBytes: 20 }),
      );
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toContain('mail.eml: its attachment 보고서.pdf is larger than 20 bytes');
    });

    it('counts pages from the body’s readable characters', async () => {
      const long = ['From: a@example.com', 'Subject: Long', '', ...Array(2400).fill('lorem ipsum')].join('\n');
      expect(await countEmailPages(await file('eml', long), 'eml', 'long.eml')).toBe(3);
      expect(await countEmailPages(await file('eml', KOREAN_EML), 'eml', 'mail.eml')).toBe(1);
    });
  });

  describe('MSG', () => {
    it('reads the header fields, the text body and the recipients of each kind', async () => {
      const message = await readEmail(await file('msg', msgFile(SIMPLE_MSG)), 'msg', 'mail.msg');
      expect(message).toMatchObject({
        from: 'Alice Example <alice@example.com>',
        to: 'Bob Example <bob@example.com>',
        cc: 'Carol <carol@example.com>',
        date: '2024-01-02T03:04:05Z',
        subject: '분기 보고서',
        text: 'Hello Bob,\r\n\r\nThis is the body.',
      });
      const markdown = await extractEmail(await file('msg', msgFile(SIMPLE_MSG)), 'msg', 'mail.msg');
      expect(markdown).toBe(
        [
          '| Subject: 분기 보고서 |',
          '| --- |',
          '| From: Alice Example \\<alice@example.com\\> |',
          '| To: Bob Example \\<bob@example.com\\> |',
          '| Cc: Carol \\<carol@example.com\\> |',
          '| Date: 2024-01-02T03:04:05Z |',
          '',
          'Hello Bob,',
          '',
          'This is the body.',
          '',
        ].join('\n'),
      );
    });

    it('reads a body kept only as compressed RTF: the HTML it encapsulates, or its own text', async () => {
      const fromHtml =
        String.raw`{\rtf1\ansi\ansicpg1252\fromhtml1 \deff0{\fonttbl{\f0\fswiss Arial;}}` +
        String.raw`{\*\htmltag64 <html>}{\*\htmltag <body>}{\*\htmltag <h1>}Quarterly report{\*\htmltag </h1>}` +
        String.raw`{\*\htmltag <p>}Sales rose {\*\htmltag <b>}12%{\*\htmltag </b>} in caf\'e9s.{\*\htmltag </p>}` +
        String.raw`{\*\htmltag <table><tr><th>}Region{\*\htmltag </th><th>}Sales{\*\htmltag </th></tr><tr><td>}North{\*\htmltag </td><td>}40{\*\htmltag </td></tr></table>}{\*\htmltag </body></html>}}`;
      const native =
        String.raw`{\rtf1\ansi\ansicpg949\deff0{\fonttbl{\f0\fswiss\fcharset0 Arial;}{\f1\fnil\fcharset129 Gulim;}}` +
        String.raw`\viewkind4\uc1\pard\f0\fs20 Hello \b team\b0 ,\par {\f1 \'c7\'d1\'b1\'b9\'be\'ee} text.\par}`;
      const only = (rtf: string): MsgMessage => ({
        streams: { [TAG.messageClass]: 'IPM.Note', [TAG.subject]: 'RTF only', [TAG.rtfCompressed]: compressedRtf(rtf) },
        attachments: [{ streams: { [TAG.attachLongFilename]: 'report.pdf', [TAG.attachData]: PDF_BYTES } }],
      });
      const html = await readEmail(await file('msg', msgFile(only(fromHtml))), 'msg', 'html.msg');
      expect(html.html).toContain('<h1>Quarterly report</h1>');
      expect(html.attachments.map((attachment) => attachment.name)).toEqual(['report.pdf']);
      expect(await extractEmail(await file('msg', msgFile(only(fromHtml))), 'msg', 'html.msg')).toBe(
        [
          '| Subject: RTF only |',
          '| --- |',
          '',
          '# Quarterly report',
          '',
          'Sales rose **12%** in cafés.',
          '',
          '| Region | Sales |',
          '| --- | --- |',
          '| North | 40 |',
          '',
        ].join('\n'),
      );
      const text = await readEmail(await file('msg', msgFile(only(native))), 'msg', 'native.msg');
      expect(text).toMatchObject({ html: undefined, text: 'Hello team,\n한국어 text.\n' });
      // A text body beside the RTF one is the body; an HTML one inside the RTF is preferred to it.
      const both = only(native);
      both.streams![TAG.body] = 'Plain body.';
      expect(await readEmail(await file('msg', msgFile(both)), 'msg', 'both.msg')).toMatchObject({
        text: 'Plain body.',
      });
      // RTF that is damaged gives no body, not an error.
      const damaged = only(native);
      damaged.streams![TAG.rtfCompressed] = Buffer.alloc(20, 7);
      expect(await readEmail(await file('msg', msgFile(damaged)), 'msg', 'damaged.msg')).toMatchObject({
        text: undefined,
      });
    });

    it('hands on a file attachment and an embedded message as a standalone .msg that reads again', async () => {
      const message = await readEmail(await file('msg', msgFile(SIMPLE_MSG)), 'msg', 'mail.msg');
      expect(message.attachments.map(({ name, contentType }) => ({ name, contentType }))).toEqual([
        { name: 'report.pdf', contentType: 'application/pdf' },
        { name: 'Inner note.msg', contentType: 'application/vnd.ms-outlook' },
      ]);
      expect(message.attachments[0].content.equals(PDF_BYTES)).toBe(true);
      const inner = await readEmail(await file('msg', message.attachments[1].content), 'msg', 'Inner note.msg');
      expect(inner).toMatchObject({ subject: 'Inner note', text: 'Inner body text.', attachments: [] });
    });

    it('decodes 8-bit strings and the HTML body from the message’s code pages', async () => {
      const korean: MsgMessage = {
        streams: {
          [TAG.messageClass.replace('001F', '001E')]: Buffer.from('IPM.Note'),
          [TAG.subject.replace('001F', '001E')]: iconv.encode('분기 보고서 검토', 'cp949'),
          [TAG.senderName.replace('001F', '001E')]: iconv.encode('김철수', 'cp949'),
          [TAG.htmlBinary]: iconv.encode('<p>안녕하세요, 검토 부탁드립니다.</p>', 'cp949'),
        },
        fixed: { [FIXED.messageCodepage]: 949, [FIXED.internetCodepage]: 949 },
      };
      const message = await readEmail(await file('msg', msgFile(korean)), 'msg', 'korean.msg');
      expect(message).toMatchObject({ subject: '분기 보고서 검토', from: '김철수' });
      expect(message.html).toBe('<p>안녕하세요, 검토 부탁드립니다.</p>');

      const japanese: MsgMessage = {
        streams: {
          [TAG.messageClass]: 'IPM.Note',
          [TAG.subject.replace('001F', '001E')]: iconv.encode('日本の報告', 'shiftjis'),
          // ISO-2022-JP, which Outlook uses for Japanese Internet mail: 日本 in JIS X 0208, then ｱ in JIS X 0201.
          [TAG.htmlBinary]: Buffer.from('<p>\u001b$BF|K\\\u001b(B \u001b(I1\u001b(B</p>', 'latin1'),
        },
        fixed: { [FIXED.messageCodepage]: 932, [FIXED.internetCodepage]: 50220 },
      };
      const japaneseMessage = await readEmail(await file('msg', msgFile(japanese)), 'msg', 'japanese.msg');
      expect(japaneseMessage.subject).toBe('日本の報告');
      expect(japaneseMessage.html).toBe('<p>日本 ｱ</p>');
    });

    it('leaves out images the HTML body shows, OLE objects and attachments by reference', async () => {
      const msg: MsgMessage = {
        streams: {
          [TAG.messageClass]: 'IPM.Note',
          [TAG.subject]: 'Logo',
          [TAG.htmlBinary]: Buffer.from('<p>Hi</p><img src="cid:image001.png@01DA">'),
        },
        fixed: { [FIXED.internetCodepage]: 65001 },
        attachments: [
          {
            streams: {
              [TAG.attachLongFilename]: 'image001.png',
              [TAG.attachContentId]: 'image001.png@01DA',
              [TAG.attachData]: PNG_BYTES,
            },
            fixed: { [FIXED.attachMethod]: 1 },
          },
          { streams: { [TAG.attachLongFilename]: 'link.docx' }, fixed: { [FIXED.attachMethod]: 2 } },
          { fixed: { [FIXED.attachMethod]: 6 }, embedded: { streams: { [TAG.subject]: 'OLE' } } },
          { streams: { [TAG.attachData]: PNG_BYTES, [TAG.attachMimeTag]: 'image/png' } },
        ],
      };
      const message = await readEmail(await file('msg', msgFile(msg)), 'msg', 'logo.msg');
      expect(message.attachments.map((a) => a.name)).toEqual(['attachment-4.png']);
    });

    it('refuses a file that is not a compound file, a damaged or looping one, and one holding no message', async () => {
      const whole = msgFile(SIMPLE_MSG);
      const other = msgFile({ streams: { ['00000000']: 'x' } });
      // The directory's sector chained to itself: msgreader alone would follow it until memory runs out.
      const looped = Buffer.from(whole);
      const directory = looped.readInt32LE(0x30);
      looped.writeInt32LE(directory, (looped.readInt32LE(0x4c) + 1) * 512 + 4 * directory);
      const damaged = [Buffer.from('not a message at all'), whole.subarray(0, 600), other, looped, Buffer.alloc(0)];
      for (const content of damaged) {
        const error = await refusal(readEmail(await file('msg', content), 'msg', 'mail.msg'));
        expect(error.code).toBe('unsupported_format');
        expect(error.message).toMatch(/^mail\.msg is not a readable e-mail message: /);
      }
    });

    it('refuses an attachment larger than the limit with a 413', async () => {
      const error = await refusal(
        readEmail(await file('msg', msgFile(SIMPLE_MSG)), 'msg', 'mail.msg', { maxAttachmentBytes: 10 }),
      );
      expect(error.code).toBe('payload_too_large');
      expect(error.message).toContain('its attachment report.pdf');
    });
  });
});
