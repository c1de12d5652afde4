import iconv from 'iconv-lite';
import { decodeText, sniffTextSample, TEXT_SAMPLE_BYTES } from './decode-text';

const KOREAN = '안녕하세요. 오늘 회의는 오후 세 시에 시작합니다.';

const bom = (bytes: number[], body: Buffer) => Buffer.concat([Buffer.from(bytes), body]);

describe('decodeText', () => {
  it('reads UTF-8, with or without a byte order mark, and drops the mark', () => {
    expect(decodeText(Buffer.from(`${KOREAN}\n`))).toEqual({ text: `${KOREAN}\n`, encoding: 'utf-8' });
    expect(decodeText(bom([0xef, 0xbb, 0xbf], Buffer.from('café')))).toEqual({ text: 'café', encoding: 'utf-8' });
  });

  it.each([
    ['utf-16le', [0xff, 0xfe]],
    ['utf-16be', [0xfe, 0xff]],
    ['utf-32le', [0xff, 0xfe, 0, 0]],
    ['utf-32be', [0, 0, 0xfe, 0xff]],
  ])('reads %s with a byte order mark', (encoding, mark) => {
    expect(decodeText(bom(mark, iconv.encode(KOREAN, encoding)))).toEqual({ text: KOREAN, encoding });
  });

  it('reads UTF-16 without a byte order mark when its zero bytes say which', () => {
    expect(decodeText(iconv.encode(`${KOREAN}\r\n`, 'utf-16le'))).toEqual({
      text: `${KOREAN}\n`,
      encoding: 'utf-16le',
    });
    expect(decodeText(iconv.encode(`${KOREAN}\r\n`, 'utf-16be'))).toEqual({
      text: `${KOREAN}\n`,
      encoding: 'utf-16be',
    });
  });

  it('reads the same Korean text from CP949 and from UTF-16', () => {
    const cp949 = decodeText(iconv.encode(KOREAN, 'cp949'));
    const utf16 = decodeText(bom([0xff, 0xfe], iconv.encode(KOREAN, 'utf-16le')));
    expect(cp949?.encoding).toBe('cp949');
    expect(cp949?.text).toBe(utf16?.text);
  });

  it.each([
    '한국어 문장입니다',
    '모든 국민은 법 앞에 평등하다.',
    '이름,나이,주소\n김철수,30,서울\n',
    '합계 금액: 35,000원',
    '회의록',
  ])('reads the short Korean text %j in CP949', (text) => {
    expect(decodeText(iconv.encode(text, 'cp949'))).toEqual({ text, encoding: 'cp949' });
  });

  it.each([
    '名前,年齢,住所\n佐藤太郎,30,東京\n三木英子,25,大阪\n髙橋淳,35,名古屋\n',
    'これは日本語のテキストです。',
    '東京都千代田区',
  ])('reads the short Japanese text %j in Shift-JIS', (text) => {
    expect(decodeText(iconv.encode(text, 'cp932'))).toEqual({ text, encoding: 'cp932' });
  });

  it('reads Chinese in GB18030 and Big5', () => {
    const simplified = '这是一个简单的中文句子，用于测试编码。';
    const traditional = '這是一個簡單的中文句子，用於測試編碼。';
    expect(decodeText(iconv.encode(simplified, 'gb18030'))?.text).toBe(simplified);
    expect(decodeText(iconv.encode(traditional, 'cp950'))?.text).toBe(traditional);
  });

  it.each([
    ['café', 'windows-1252'],
    ['Größe und Übermaß', 'windows-1252'],
    ['Привет, как дела? Всё хорошо.', 'windows-1251'],
    ['Příliš žluťoučký kůň úpěl ďábelské ódy', 'iso-8859-2'],
  ])('reads %j in its single-byte code page (%s)', (text, encoding) => {
    expect(decodeText(iconv.encode(text, encoding))).toEqual({ text, encoding });
  });

  it('reads Latin-1 bytes as Latin-1', () => {
    expect(decodeText(Buffer.from('café\n', 'latin1'))?.text).toBe('café\n');
  });

  it('reads UTF-8 with a stray windows-1252 byte as UTF-8, the stray byte as windows-1252', () => {
    const bytes = Buffer.concat([Buffer.from('한국어 텍스트, '), Buffer.from([0xe9]), Buffer.from(' 끝')]);
    expect(decodeText(bytes)).toEqual({ text: '한국어 텍스트, é 끝', encoding: 'utf-8' });
  });

  it('judges the encoding where the non-ASCII text is, not by an ASCII start', () => {
    const ascii = 'id,name\n'.repeat(20_000);
    const bytes = iconv.encode(`${ascii}1,홍길동\n`, 'cp949');
    expect(bytes.length).toBeGreaterThan(TEXT_SAMPLE_BYTES);
    expect(decodeText(bytes)).toEqual({ text: `${ascii}1,홍길동\n`, encoding: 'cp949' });
  });

  it('normalises line ends and drops control characters', () => {
    expect(decodeText(Buffer.from('a\r\nb\rc\fd\x01e\x7f\tf\n'))?.text).toBe('a\nb\nc\nde\tf\n');
  });

  it('refuses binary data', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(decodeText(png)).toBeUndefined();
    expect(decodeText(Buffer.from('text with a NUL\0 byte'))).toBeUndefined();
    expect(decodeText(noise(4096, 0, 256))).toBeUndefined();
    expect(decodeText(noise(4096, 0x80, 128))).toBeUndefined();
    const table = Buffer.alloc(4096);
    for (let i = 0; i < 1024; i++) table.writeUInt32LE(i * 7, i * 4);
    expect(decodeText(table)).toBeUndefined();
  });
});

describe('sniffTextSample', () => {
  it('accepts text in the encodings decodeText reads', () => {
    expect(sniffTextSample(Buffer.from('plain ASCII'))).toBe(true);
    expect(sniffTextSample(bom([0xff, 0xfe], iconv.encode(KOREAN, 'utf-16le')))).toBe(true);
    expect(sniffTextSample(bom([0xfe, 0xff], iconv.encode(KOREAN, 'utf-16be')))).toBe(true);
    expect(sniffTextSample(iconv.encode(KOREAN, 'cp949'))).toBe(true);
  });

  it('accepts the first 64 KiB of UTF-8 text cut inside a character', () => {
    const start = Buffer.from('가'.repeat(30_000)).subarray(0, TEXT_SAMPLE_BYTES);
    expect(start.length % 3).not.toBe(0);
    expect(sniffTextSample(start)).toBe(true);
    expect(decodeText(start)?.encoding).toBe('utf-8');
  });

  it('refuses binary data', () => {
    expect(sniffTextSample(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0]))).toBe(false);
    expect(sniffTextSample(noise(TEXT_SAMPLE_BYTES * 2, 0, 256))).toBe(false);
  });
});

/** Bytes from a fixed pseudo-random sequence, each in `from`…`from + range - 1`. */
function noise(length: number, from: number, range: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = 12345;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    bytes[i] = from + ((state >> 16) % range);
  }
  return bytes;
}
