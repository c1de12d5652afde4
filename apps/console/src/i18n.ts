import { useFollowed } from './follow';
import { PARTICLE_MARKERS, withParticle } from './korean';
import { en, type Dictionary, type PluralKey, type TextKey } from './messages/en';
import { ko } from './messages/ko';

export type { MessageKey, PluralKey, TextKey } from './messages/en';

/** The console's languages: English is the reference, and every other dictionary has each of its keys. */
export type Language = 'en' | 'ko';
export const LANGUAGES: { code: Language; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'ko', name: '한국어' },
];
export const DICTIONARIES: Record<Language, Dictionary> = { en, ko };

const STORAGE_KEY = 'docconv.language';
const listeners = new Set<() => void>();

/** The language chosen in this browser before, else the first of the browser's languages we speak. */
export function detectLanguage(stored: string | null, preferred: readonly string[]): Language {
  if (stored === 'en' || stored === 'ko') return stored;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'ko' || base === 'en') return base;
  }
  return 'en';
}

let language: Language = detectLanguage(readStored(), navigator.languages ?? [navigator.language]);
document.documentElement.lang = language;

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function currentLanguage(): Language {
  return language;
}

export function setLanguage(next: Language): void {
  language = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Private windows may refuse storage; the choice then lasts until the page reloads.
  }
  for (const listener of listeners) listener();
}

/** The current language, re-rendering the caller when it changes. */
export function useLanguage(): Language {
  return useFollowed(listeners, () => language);
}

/** A format's name in the current language: the server's label, unless it is a word rather than a format's own name. */
export function formatLabel(format: { format: string; label: string }): string {
  const key = `format.${format.format}`;
  return key in en ? t(key as TextKey) : format.label;
}

/** A `{name}` placeholder, and the Korean particle marker after it if there is one (`{format}(으)로`). */
const PLACEHOLDER = new RegExp(
  `\\{(\\w+)\\}(${PARTICLE_MARKERS.map((m) => m.replace(/[()/]/g, '\\$&')).join('|')})?`,
  'g',
);

/** `template` with its `{name}` placeholders filled from `values`, each particle after one fitted to its value. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(PLACEHOLDER, (whole, name: string, marker: string | undefined) => {
    if (!(name in values)) return whole;
    const value = String(values[name]);
    return marker ? withParticle(value, marker) : value;
  });
}

/** The message for `key` in the current language, with `{name}` placeholders filled from `values`. */
export function t(key: TextKey, values: Record<string, string | number> = {}): string {
  return fill(DICTIONARIES[language][key], values);
}

/**
 * The message for `key` in the form the language gives `n` (Intl.PluralRules: `1 point`, `2 points`;
 * Korean has one form), with `{n}` the number written out and the other placeholders from `values`.
 */
export function tn(key: PluralKey, n: number, values: Record<string, string | number> = {}): string {
  const forms = DICTIONARIES[language][key];
  const form = forms[new Intl.PluralRules(language).select(n)] ?? forms.other;
  return fill(form, { ...values, n: new Intl.NumberFormat(language).format(n) });
}
