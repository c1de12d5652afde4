import { withoutDroppedCharacters } from './dropped-characters';

describe('withoutDroppedCharacters', () => {
  it('keeps tab, line feed and carriage return and drops every other C0 control', () => {
    const c0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).join('');
    expect(withoutDroppedCharacters(`a${c0}b`)).toBe('a\t\n\rb');
  });

  it('drops DEL, the C1 controls, U+FEFF and the noncharacters U+FFFE and U+FFFF', () => {
    expect(withoutDroppedCharacters('\ufeffa\u007fb\u0080c\u0085d\u009fe\ufffef\uffffg')).toBe('abcdefg');
  });

  it('keeps the characters around the dropped ones: no-break space, U+00A0 onwards, U+FFFD, private use', () => {
    const kept = '\u00a0é가\u200b\ue000\ufffd\ufffc😀';
    expect(withoutDroppedCharacters(kept)).toBe(kept);
  });

  it('replaces unpaired surrogates, whichever half, and keeps pairs', () => {
    expect(withoutDroppedCharacters('a\ud83db\ude00c\ud83d\ude00\ud83d')).toBe('a\ufffdb\ufffdc😀\ufffd');
  });

  it('puts the replacement given in place of each dropped character, not of kept ones', () => {
    expect(withoutDroppedCharacters('Bell\u0007and\u001bescape\tx\ud800', ' ')).toBe('Bell and escape\tx\ufffd');
  });

  it('leaves text XML can carry unchanged', () => {
    const text = 'Tables | and <tags> & "quotes"\r\n\tindented';
    expect(withoutDroppedCharacters(text)).toBe(text);
  });
});
