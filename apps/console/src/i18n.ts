import { useFollowed } from './follow';
import { en, type MessageKey } from './messages/en';
import { ko } from './messages/ko';

export type { MessageKey } from './messages/en';

/** The console's languages: English is the reference, and every other dictionary has each of its keys. */
export type Language = 'en' | 'ko';
export const LANGUAGES: { code: Language; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'ko', name: '한국어' },
];
export const DICTIONARIES: Record<Language, Record<MessageKey, string>> = { en, ko };

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
  return key in en ? t(key as MessageKey) : format.label;
}

/** The message for `key` in the current language, with `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  return DICTIONARIES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
