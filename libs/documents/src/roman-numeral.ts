const NUMERALS: [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

/** `value` in capital Roman numerals (14 → XIV); outside 1–3999, which they cannot write, in digits. */
export function romanNumeral(value: number): string {
  if (value <= 0 || value >= 4000) return String(value);
  let rest = value;
  let out = '';
  for (const [n, numeral] of NUMERALS) {
    while (rest >= n) {
      out += numeral;
      rest -= n;
    }
  }
  return out;
}
