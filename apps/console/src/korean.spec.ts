import { describe, expect, it } from '@jest/globals';
import { endingOf, withParticle } from './korean';

describe('withParticle', () => {
  it('takes 로 after a vowel or ㄹ and 으로 after another final consonant', () => {
    expect(withParticle('워드', '(으)로')).toBe('워드로');
    expect(withParticle('한글', '(으)로')).toBe('한글로');
    expect(withParticle('엑셀 고급', '(으)로')).toBe('엑셀 고급으로');
    expect(withParticle('마크다운', '(으)로')).toBe('마크다운으로');
  });

  it('reads a parenthesis at the end as an aside: the word before it decides', () => {
    expect(withParticle('워드(DOCX)', '(으)로')).toBe('워드(DOCX)로');
    expect(withParticle('파워포인트(PPTX)', '(으)로')).toBe('파워포인트(PPTX)로');
    expect(withParticle('한글(HWPX)', '(으)로')).toBe('한글(HWPX)로');
    expect(withParticle('엑셀 고급(XLSX)', '(으)로')).toBe('엑셀 고급(XLSX)으로');
  });

  it('reads Latin names as Korean reads them', () => {
    expect(withParticle('DOCX', '(으)로')).toBe('DOCX로'); // 닥스
    expect(withParticle('ZIP', '(으)로')).toBe('ZIP으로'); // 집
    expect(withParticle('JSON', '을/를')).toBe('JSON을'); // 제이슨
    expect(withParticle('HTML', '(으)로')).toBe('HTML로'); // ...엠엘: ㄹ
    expect(withParticle('CSV', '(으)로')).toBe('CSV로'); // ...브이
    expect(withParticle('PDF', '이/가')).toBe('PDF가'); // 피디에프
    expect(withParticle('Excel', '(으)로')).toBe('Excel로'); // 엑셀
    expect(withParticle('scan', '(으)로')).toBe('scan으로'); // 스캔
    expect(withParticle('text', '(으)로')).toBe('text로'); // 텍스트
  });

  it('reads numbers in Sino-Korean', () => {
    expect(withParticle('10', '(으)로')).toBe('10으로'); // 십
    expect(withParticle('2', '(으)로')).toBe('2로'); // 이
    expect(withParticle('7', '(으)로')).toBe('7로'); // 칠
    expect(withParticle('3', '을/를')).toBe('3을'); // 삼
  });

  it('chooses every particle it knows by the same ending', () => {
    expect(['을/를', '이/가', '은/는', '와/과'].map((marker) => withParticle('보고서', marker))).toEqual([
      '보고서를',
      '보고서가',
      '보고서는',
      '보고서와',
    ]);
    expect(['을/를', '이/가', '은/는', '와/과'].map((marker) => withParticle('파일', marker))).toEqual([
      '파일을',
      '파일이',
      '파일은',
      '파일과',
    ]);
  });

  it('looks past closing quotes and full stops, and keeps the marker when nothing can be read', () => {
    expect(endingOf('“회의록”')).toBe('consonant');
    expect(endingOf('보고서.')).toBe('vowel');
    expect(withParticle('', '(으)로')).toBe('(으)로');
    expect(withParticle('…', '(으)로')).toBe('…(으)로');
  });
});
