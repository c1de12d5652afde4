import iconv from 'iconv-lite';
import {
  declaredHtmlCharset,
  decodeBytes,
  encodingForCharset,
  encodingForCodepage,
  iso2022jpToEucJp,
} from './codepages';

describe('code pages', () => {
  it('names an encoding for the code pages Outlook writes', () => {
    expect(encodingForCodepage(949)).toBe('cp949');
    expect(encodingForCodepage(932)).toBe('cp932');
    expect(encodingForCodepage(51949)).toBe('euckr');
    expect(encodingForCodepage(50220)).toBe('iso2022jp');
    expect(encodingForCodepage(65001)).toBe('utf8');
    expect(encodingForCodepage(1252)).toBe('cp1252');
    expect(encodingForCodepage(20127)).toBe('ascii');
    expect(encodingForCodepage(12345)).toBeUndefined();
    expect(encodingForCodepage(undefined)).toBeUndefined();
    expect(encodingForCharset('ks_c_5601-1987')).toBe('ks_c_5601-1987');
    expect(encodingForCharset('ISO-2022-JP')).toBe('iso2022jp');
    expect(encodingForCharset('no-such-charset')).toBeUndefined();
  });

  it('decodes bytes in their encoding, a byte order mark first', () => {
    expect(decodeBytes(iconv.encode('한국어 본문', 'cp949'), 'cp949')).toBe('한국어 본문');
    expect(decodeBytes(Buffer.from('\ufeff본문', 'utf8'), 'cp949')).toBe('본문');
    expect(decodeBytes(Buffer.from('\ufeff본문', 'utf16le'), undefined)).toBe('본문');
    expect(decodeBytes(Buffer.from('plain', 'utf8'), undefined)).toBe('plain');
  });

  it('reads ISO-2022-JP: JIS X 0208, half-width katakana and JIS X 0212', () => {
    // 日本 (46 7C, 4B 5C), ｱ (31 in JIS X 0201 katakana), 丂 (30 21 in JIS X 0212), back to ASCII.
    const jis = Buffer.from('a\u001b$BF|K\\\u001b(B-\u001b(I1\u001b(B-\u001b$(D0!\u001b(Bz', 'latin1');
    expect(iconv.decode(iso2022jpToEucJp(jis), 'eucjp')).toBe('a日本-ｱ-丂z');
    expect(decodeBytes(jis, 'iso2022jp')).toBe('a日本-ｱ-丂z');
  });

  it('finds the charset an HTML document declares', () => {
    expect(declaredHtmlCharset(Buffer.from('<html><head><meta charset="euc-kr">'))).toBe('euc-kr');
    expect(
      declaredHtmlCharset(Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">')),
    ).toBe('shift_jis');
    expect(declaredHtmlCharset(Buffer.from('<p>none</p>'))).toBeUndefined();
  });
});
