import { writeMarkdown } from '@docconv/model';
import { DomainError } from '@docconv/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeHwp } from '../../../../test/support/fixtures';
import { extractHwp } from './extract-hwp';

/** The Markdown the model's writer makes of what `extractHwp` reads. */
const markdownOf = async (path: string, name: string): Promise<string> => writeMarkdown(await extractHwp(path, name));

const SECTOR = 512;

/**
 * The fixture's compound file, padded to the sectors its allocation table declares (the cfb
 * writer stops at the last used sector; Hangul expects the whole table's worth).
 */
async function completeHwp(pages: string[][]): Promise<Buffer> {
  const file = await makeHwp(pages);
  const declared = SECTOR + 128 * SECTOR * Math.ceil((file.length - SECTOR) / (128 * SECTOR));
  return Buffer.concat([file, Buffer.alloc(Math.max(0, declared - file.length))]);
}

/** Sets the FileHeader's property flags (bit 1: password, bit 2: distribution). */
function withFlags(file: Buffer, flags: number): Buffer {
  const copy = Buffer.from(file);
  copy.writeUInt32LE(flags, copy.indexOf('HWP Document File', 0, 'latin1') + 36);
  return copy;
}

async function expectRefused(promise: Promise<unknown>, name: string, reason: RegExp): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('file_processing_failed');
  expect((error as DomainError).message).toContain(name);
  // Every refusal says what to do next.
  expect((error as DomainError).message).toMatch(/Open it in Hangul|opens in Hangul|Upload it again|Ask the author/);
  expect((error as DomainError).message).toMatch(reason);
}

describe('extractHwp', () => {
  let folder: string;
  const write = async (name: string, data: Buffer | string): Promise<string> => {
    const path = join(folder, name);
    await writeFile(path, data);
    return path;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'docconv-hwp-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps Korean paragraphs intact and in order, as the file stores them', async () => {
    const paragraphs = ['첫째 문단: 삼강오륜은 윤리 도덕입니다.', '둘째 문단 — 군위신강', 'Third paragraph, 셋째'];
    const markdown = await markdownOf(await write('order.hwp', await completeHwp([paragraphs])), 'order.hwp');

    expect(markdown).toBe(`${paragraphs.join('\n\n')}\n`);
    expect(markdown).not.toContain('HWP 문서');
    expect(markdown).not.toContain('버전');
    expect(markdown.normalize('NFC')).toBe(markdown);
  });

  it('reads every page of the saved layout', async () => {
    const markdown = await markdownOf(
      await write('pages.hwp', await completeHwp([['가나다 첫 쪽'], ['라마바 둘째 쪽'], ['사아자 셋째 쪽']])),
      'pages.hwp',
    );
    const positions = ['가나다 첫 쪽', '라마바 둘째 쪽', '사아자 셋째 쪽'].map((t) => markdown.indexOf(t));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('refuses a file that is not an HWP document', async () => {
    await expectRefused(
      extractHwp(await write('text.hwp', '이것은 한글 문서가 아닙니다'), 'text.hwp'),
      'text.hwp',
      /is not an HWP 5 document|damaged HWP file/,
    );
  });

  it('refuses a compound file cut short', async () => {
    const truncated = (await completeHwp([['잘린 파일']])).subarray(0, 3 * SECTOR);
    await expectRefused(extractHwp(await write('cut.hwp', truncated), 'cut.hwp'), 'cut.hwp', /\S/);
  });

  it('refuses a missing file', async () => {
    const error = extractHwp(join(folder, 'absent.hwp'), 'absent.hwp');
    await expectRefused(error, 'absent.hwp', /could not be opened/);
    await expect(error).rejects.not.toThrow(folder);
  });

  it('refuses password-protected and distribution-locked files instead of printing their scrambled bodies', async () => {
    const plain = await completeHwp([['잠긴 문서']]);
    await expectRefused(
      extractHwp(await write('locked.hwp', withFlags(plain, 0b011)), '잠긴.hwp'),
      '잠긴.hwp',
      /is password-protected\. Open it in Hangul, save a copy without the password/,
    );
    await expectRefused(
      extractHwp(await write('dist.hwp', withFlags(plain, 0b101)), 'dist.hwp'),
      'dist.hwp',
      /is a distribution document \(배포용 문서\), which its author locked against copying\. Ask the author/,
    );
  });
});
