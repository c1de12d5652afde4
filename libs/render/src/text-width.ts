/** Width in character cells: East Asian wide and full-width characters take two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += isWide(char) ? 2 : 1;
  return width;
}

/** Hangul, CJK ideographs, kana and full-width forms: the characters that take a double cell. */
export function isWide(char: string): boolean {
  return /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u.test(char);
}
