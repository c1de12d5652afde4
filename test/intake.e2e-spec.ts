import { JobsService } from '@docconv/jobs';
import iconv from 'iconv-lite';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { makeTar, makeZip } from './support/archives';
import { createKey, signup, type TestKey, type TestUser } from './support/accounts';
import {
  makeBmp,
  makeDocx,
  makeHwp,
  makeHwpx,
  makeImage,
  makeMedia,
  makePdf,
  makePptx,
  makeTiff,
  makeXlsm,
  makeXlsx,
} from './support/fixtures';
import { upload } from './support/jobs';
import { createTestApp, type TestApp } from './support/test-app';

describe('intake of every format', () => {
  let t: TestApp;
  let user: TestUser;
  let key: TestKey;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t.http, 'intake');
    key = await createKey(t.http, user, { rate_limit_rpm: 100_000 });
  });
  afterAll(() => t.close());

  const preview = async (name: string, content: Buffer | string, fields: Record<string, string> = {}) => {
    const res = await upload(t.http, key.key, [{ name, content }], fields);
    expect({ name, status: res.status, detail: res.body.detail as unknown }).toEqual({
      name,
      status: 201,
      detail: undefined,
    });
    return res.body;
  };

  it.each([
    ['report.pdf', 'pdf', 3, 0, () => makePdf(['one', 'two', 'three'])],
    ['letter.docx', 'docx', 3, 0, () => makeDocx(['first page', 'second page', 'third page'], [1, 2])],
    ['deck.pptx', 'pptx', 4, 0, () => makePptx(['a', 'b', 'c', 'd'])],
    [
      'book.xlsx',
      'xlsx',
      2,
      0,
      () =>
        makeXlsx({
          Sales: [
            ['Region', 'Total'],
            ['North', 10],
          ],
          Empty: [],
          Costs: [['x', 1]],
        }),
    ],
    ['macro.xlsm', 'xlsx', 1, 0, () => makeXlsm({ Data: [['a', 1]] })],
    ['문서.hwp', 'hwp', 3, 0, () => makeHwp([['첫 쪽'], ['둘째 쪽', '계속'], ['셋째 쪽']])],
    ['문서.hwpx', 'hwpx', 2, 0, () => makeHwpx([['첫 쪽', '둘'], ['둘째 쪽']])],
    ['scan.png', 'image', 0, 1, () => makeImage('png', 'png text')],
    ['photo.jpg', 'image', 0, 1, () => makeImage('jpeg', 'jpeg text')],
    ['image.webp', 'image', 0, 1, () => makeImage('webp', 'webp text')],
    ['anim.gif', 'image', 0, 1, () => makeImage('gif', 'gif text')],
    ['bitmap.bmp', 'image', 0, 1, () => makeBmp('bmp text')],
    ['pages.tiff', 'image', 0, 3, () => makeTiff(['first', 'second', 'third'])],
  ] as const)('%s → %s, %i pages, %i images', async (name, fileType, pages, images, make) => {
    const body = await preview(name, await make());
    expect(body).toMatchObject({
      file_type: fileType,
      total_pages: pages,
      total_files: 1,
      media_duration_seconds: 0,
      has_media: false,
      cost: { pages, image_count: images, points: (pages + images) * 30 },
    });
  });

  it('Markdown is mixed and free', async () => {
    const body = await preview('notes.markdown', '# notes\n');
    expect(body).toMatchObject({ file_type: 'mixed', total_pages: 0, cost: { points: 0 } });
  });

  it('several kinds are mixed; anything from an archive is archive', async () => {
    const mixed = await upload(t.http, key.key, [
      { name: 'a.pdf', content: await makePdf(['a']) },
      { name: 'b.png', content: await makeImage('png', 'b') },
    ]);
    expect(mixed.body).toMatchObject({ file_type: 'mixed', total_files: 2, cost: { pages: 1, image_count: 1 } });
    const zip = makeZip([{ name: 'only.pdf', data: await makePdf(['x', 'y']) }]);
    expect(await preview('one.zip', zip)).toMatchObject({ file_type: 'archive', total_files: 1, total_pages: 2 });
  });

  it('archives: zip, tar and tar.gz unpack, nested two deep, skipping folders, __MACOSX and dotfiles', async () => {
    const inner = makeZip([{ name: 'deep/c.md', data: '# c\n' }]);
    const zip = makeZip([
      { name: 'docs/', data: '' },
      { name: 'docs/a.pdf', data: await makePdf(['a', 'b']) },
      { name: '__MACOSX/docs/._a.pdf', data: 'junk' },
      { name: 'docs/.DS_Store', data: 'junk' },
      { name: 'inner.zip', data: inner },
      { name: 'Thumbs.db', data: 'junk' },
    ]);
    const body = await preview('bundle.zip', zip);
    expect(body).toMatchObject({ file_type: 'archive', total_files: 2, total_pages: 2 });
    const job = await t.app
      .get(DataSource)
      .query('SELECT display_path FROM job_files WHERE job_id = $1 ORDER BY seq', [body.job_id]);
    expect(job.map((r: { display_path: string }) => r.display_path)).toEqual([
      'bundle.zip/docs/a.pdf',
      'bundle.zip/inner.zip/deep/c.md',
    ]);

    const tar = makeTar([
      { name: 'x/1.md', data: '# 1\n' },
      { name: 'x/2.pdf', data: await makePdf(['p']) },
    ]);
    expect(await preview('t.tar', tar)).toMatchObject({ file_type: 'archive', total_files: 2, total_pages: 1 });
    expect(await preview('t.tar.gz', makeTar([{ name: '1.md', data: '# 1\n' }], true))).toMatchObject({
      total_files: 1,
    });

    const third = makeZip([
      { name: 'l2.zip', data: makeZip([{ name: 'l3.zip', data: makeZip([{ name: 'x.md', data: 'x' }]) }]) },
    ]);
    const tooDeep = await upload(t.http, key.key, [{ name: 'l1.zip', content: third }]);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.detail).toMatch(/nested more than 2 levels/);
  });

  it('decodes CP949 entry names from Korean Windows zips, and uses relative_paths for display', async () => {
    const name = iconv.encode('보고서/결과.md', 'cp949');
    const body = await preview('한글.zip', makeZip([{ name, data: '# 결과\n', utf8: false }]), {
      relative_paths: JSON.stringify(['업로드/한글.zip']),
    });
    const [file] = await t.app
      .get(DataSource)
      .query('SELECT display_path FROM job_files WHERE job_id = $1', [body.job_id]);
    expect(file.display_path).toBe('업로드/한글.zip/보고서/결과.md');
  });

  it('refuses hostile archives with the reason', async () => {
    const cases: [string, Buffer, number, RegExp][] = [
      [
        'bomb.zip',
        makeZip([{ name: 'zeros.md', data: Buffer.alloc(20 * 1024 * 1024, 0x61) }]),
        400,
        /expands more than 200:1/,
      ],
      ['escape.zip', makeZip([{ name: '../../etc/cron.d/x.md', data: 'x' }]), 400, /unsafe path/],
      ['absolute.zip', makeZip([{ name: '/etc/passwd.md', data: 'x' }]), 400, /unsafe path/],
      ['windows.zip', makeZip([{ name: 'C:\\x.md', data: 'x' }]), 400, /unsafe path/],
      ['link.zip', makeZip([{ name: 'link.md', data: '/etc/passwd', mode: 0o120777 }]), 400, /link or a device/],
      ['link.tar', makeTar([{ name: 'l.md', type: '2', linkname: '/etc/passwd' }]), 400, /link or a device/],
      ['device.tar', makeTar([{ name: 'null.md', type: '3' }]), 400, /link or a device/],
      ['escape.tar', makeTar([{ name: '../x.md', data: 'x' }]), 400, /unsafe path/],
      [
        'many.zip',
        makeZip(Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}.md`, data: 'x' }))),
        413,
        /more than 1000 files/,
      ],
      ['empty.zip', makeZip([]), 400, /no files to convert/],
      ['lying.zip', makeZip([{ name: 'a.md', data: 'abc', declaredSize: 1 }]), 400, /damaged/],
    ];
    for (const [name, content, status, message] of cases) {
      const res = await upload(t.http, key.key, [{ name, content }]);
      expect({ name, status: res.status }).toEqual({ name, status });
      expect({ name, detail: res.body.detail as string }).toEqual({ name, detail: expect.stringMatching(message) });
    }
  });

  it('an office file with more content than one conversion takes is 413 at upload, before any charge', async () => {
    const types =
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
    // Numbered words compress like real text (far below the 200:1 of a bomb), so the part's size is what is refused.
    const paragraphs: string[] = [];
    for (let size = 0, n = 0; size < 33 * 1024 * 1024; n++) {
      const paragraph = `<w:p><w:r><w:t>paragraph ${n} says ${(n * 7919) % 100_003} words</w:t></w:r></w:p>`;
      paragraphs.push(paragraph);
      size += paragraph.length;
    }
    const body = paragraphs.join('');
    const docx = makeZip([
      { name: '[Content_Types].xml', data: types },
      { name: 'word/document.xml', data: `<w:document xmlns:w="w"><w:body>${body}</w:body></w:document>` },
    ]);
    const res = await upload(t.http, key.key, [{ name: 'huge.docx', content: docx }]);
    expect(res.status).toBe(413);
    expect(res.body.detail).toMatch(/^huge\.docx: its part word\/document\.xml is larger than 32 MB uncompressed/);
  });

  it('audio and video are refused while transcription is unavailable, charging and storing nothing', async () => {
    const before = (await t.http.get('/api/v1/account').set('X-API-Key', key.key)).body.points_balance;
    const res = await upload(t.http, key.key, [{ name: 'talk.mp3', content: await makeMedia('mp3', 2) }]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('transcription_unavailable');
    expect((await t.http.get('/api/v1/account').set('X-API-Key', key.key)).body.points_balance).toBe(before);
  });

  it('measures audio and video per file, priced by second and rounded up per file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'docconv-media-test-'));
    try {
      const specs: [string, number, boolean][] = [
        ['a.mp3', 3, false],
        ['b.wav', 2, false],
        ['c.m4a', 2, false],
        ['d.ogg', 2, false],
        ['e.flac', 2, false],
        ['f.webm', 2, false],
        ['g.mp4', 2, true],
        ['h.mov', 2, true],
        ['i.webm', 2, true],
        ['j.mkv', 2, true],
        ['k.avi', 2, true],
      ];
      const files = [];
      for (const [name, seconds, video] of specs) {
        const path = join(folder, name);
        await writeFile(path, await makeMedia(name.split('.')[1], seconds, video));
        files.push({ tempPath: path, filename: name, bytes: 1 });
      }
      const { job } = await t.app.get(JobsService).createPending({ userId: user.userId, apiKeyId: key.id }, files, {
        model: 'premium',
        engine: 'tesseract',
        columns: null,
        prompt: '',
        dpi: 300,
        refinement: false,
        transcription: true,
      });
      const rows = await t.app
        .get(DataSource)
        .query('SELECT display_path, kind, duration_seconds FROM job_files WHERE job_id = $1 ORDER BY seq', [job.id]);
      expect(rows.map((r: { kind: string }) => r.kind)).toEqual([...Array(6).fill('audio'), ...Array(5).fill('video')]);
      for (const row of rows)
        expect(row.duration_seconds).toBeGreaterThanOrEqual(row.display_path.startsWith('a.') ? 3 : 2);
      for (const row of rows)
        expect(row.duration_seconds).toBeLessThanOrEqual(row.display_path.startsWith('a.') ? 4 : 3);
      const audio = rows
        .filter((r: { kind: string }) => r.kind === 'audio')
        .map((r: { duration_seconds: number }) => r.duration_seconds);
      const video = rows
        .filter((r: { kind: string }) => r.kind === 'video')
        .map((r: { duration_seconds: number }) => r.duration_seconds);
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      expect(job.quote).toMatchObject({ audio_seconds: sum(audio), video_seconds: sum(video) });
      expect(job.mediaDurationSeconds).toBe(sum(audio) + sum(video));
      const expected =
        sum(audio.map((s: number) => Math.ceil(s * 0.1))) + sum(video.map((s: number) => Math.ceil(s * 0.2)));
      expect(job.quote.points).toBe(expected);
      expect(job.fileType).toBe('mixed');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('an encrypted PDF and a password-protected HWP are 400 encrypted_document', async () => {
    const hwp = await makeHwp([['secret']]);
    // Set the password bit (bit 1) of the HWP FileHeader properties.
    const { default: CFB } = await import('cfb');
    const container = CFB.read(hwp, { type: 'buffer' });
    const header = Buffer.from(CFB.find(container, '/FileHeader')!.content as Uint8Array);
    header.writeUInt32LE(3, 36);
    CFB.utils.cfb_add(container, '/FileHeader', header);
    const locked = Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
    const res = await upload(t.http, key.key, [{ name: 'locked.hwp', content: locked }]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('encrypted_document');
  });
});
