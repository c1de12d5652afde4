/**
 * Korean particles that change with the word before them: `{format}(으)로` becomes `워드(DOCX)로`,
 * `{name}을/를` becomes `보고서를`. The marker is written in ko.ts after a placeholder, and `t`
 * puts the right form in its place (`withParticles`).
 */

/** How a word ends, as far as a particle cares: a vowel, the final consonant ㄹ, or another final consonant. */
export type Ending = 'vowel' | 'rieul' | 'consonant';

/** Each marker and its form after a vowel, after ㄹ and after another final consonant. */
const PARTICLES: Record<string, Record<Ending, string>> = {
  '(으)로': { vowel: '로', rieul: '로', consonant: '으로' },
  '을/를': { vowel: '를', rieul: '을', consonant: '을' },
  '이/가': { vowel: '가', rieul: '이', consonant: '이' },
  '은/는': { vowel: '는', rieul: '은', consonant: '은' },
  '와/과': { vowel: '와', rieul: '과', consonant: '과' },
};

/**
 * Latin names as they are read in Korean, by how the reading ends (`DOCX` is 닥스: a vowel). A
 * name not listed is read letter by letter when it is in capitals, else as an English word.
 */
const READINGS: Record<string, Ending> = {
  docx: 'vowel', // 닥스
  pptx: 'vowel', // 피피티엑스
  xlsx: 'vowel', // 엑셀 파일, 엑스엘에스엑스
  hwpx: 'vowel', // 에이치더블유피엑스
  hwp: 'vowel', // 에이치더블유피
  pdf: 'vowel', // 피디에프
  zip: 'consonant', // 집
  tar: 'vowel', // 타르
  json: 'consonant', // 제이슨
  jpeg: 'consonant', // 제이펙
  jpg: 'consonant', // 제이펙
  markdown: 'consonant', // 마크다운
  excel: 'rieul', // 엑셀
  word: 'vowel', // 워드
  powerpoint: 'vowel', // 파워포인트
  outlook: 'consonant', // 아웃룩
};

/** Capital letters read one by one: L and R (엘, 알) end in ㄹ, M and N (엠, 엔) in another consonant, the rest in a vowel. */
const LETTERS: Record<string, Ending> = { L: 'rieul', R: 'rieul', M: 'consonant', N: 'consonant' };
/** Digits as read in Sino-Korean: 영, 일, 이, 삼, 사, 오, 육, 칠, 팔, 구. */
const DIGITS: Ending[] = [
  'consonant',
  'rieul',
  'vowel',
  'consonant',
  'vowel',
  'vowel',
  'consonant',
  'rieul',
  'rieul',
  'vowel',
];

const HANGUL_FIRST = 0xac00;
const HANGUL_LAST = 0xd7a3;
/** The final consonant ㄹ's index among a syllable's 28 endings (0: none). */
const RIEUL = 8;

/**
 * How `word` ends when read aloud: by its last Hangul syllable's final consonant (batchim); by how a
 * Latin name or a number ending it is read; a parenthesis at its end is an aside, so `워드(DOCX)`
 * ends as 워드 does. Undefined when nothing in it can be read.
 */
export function endingOf(word: string): Ending | undefined {
  const trimmed = word.trim();
  const aside = /^(.*\S)\s*\([^()]*\)$/.exec(trimmed);
  if (aside) return endingOf(aside[1]);
  const last = trimmed.at(-1);
  if (last === undefined) return undefined;
  const code = last.charCodeAt(0);
  if (code >= HANGUL_FIRST && code <= HANGUL_LAST) {
    const final = (code - HANGUL_FIRST) % 28;
    return final === 0 ? 'vowel' : final === RIEUL ? 'rieul' : 'consonant';
  }
  if (/[0-9]/.test(last)) return DIGITS[Number(last)];
  const latin = /[A-Za-z]+$/.exec(trimmed)?.[0];
  if (latin) return latinEnding(latin);
  return endingOf(trimmed.slice(0, -1)); // closing quotes, brackets, full stops: what comes before them
}

function latinEnding(name: string): Ending {
  const known = READINGS[name.toLowerCase()];
  if (known) return known;
  if (name === name.toUpperCase()) return LETTERS[name.at(-1)!] ?? 'vowel';
  // An English word as Korean writes it: a final l is ㄹ (엑셀), m, n and ng are consonants (폼, 스캔, 링), the rest end in a vowel (텍스트, 페이퍼).
  if (/l$/i.test(name)) return 'rieul';
  return /(m|ng?)$/i.test(name) ? 'consonant' : 'vowel';
}

/** The markers ko.ts may write after a placeholder. */
export const PARTICLE_MARKERS = Object.keys(PARTICLES);

/** `word` followed by `marker`'s form for it; by the marker itself (`(으)로`) when its ending cannot be told. */
export function withParticle(word: string, marker: string): string {
  const ending = endingOf(word);
  return ending && marker in PARTICLES ? `${word}${PARTICLES[marker][ending]}` : `${word}${marker}`;
}
