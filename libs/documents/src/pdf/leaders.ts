/**
 * Dot leaders: the rows of dots that lead the eye from a label to its number (a contents entry
 * to its page, a table's row label to its figures). They are drawn, not written: the text keeps
 * the label and the number and drops the dots.
 */

/** A label, a dot leader (four dots or more, spaced or not) and what it leads to: a word of at most eight characters. */
export const LEADER = /^(.*?\S)\s*(?:\.\s*){4,}([^.\s]\S{0,7})$/;
/** A page number a contents entry ends with: arabic or roman. */
const PAGE_NUMBER = /^(?:\d{1,4}|[ivxlc]{1,7})$/i;
/** A dot leader anywhere in a text, with the spaces around it. */
const LEADER_RUN = /\s*(?:\.\s*){4,}|\s*(?:…\s*){2,}/g;

/** A contents entry's label and page (`2.1 Naming . . . . . 12`), when `text` is one. */
export function contentsEntry(text: string): { label: string; page: string } | undefined {
  const entry = LEADER.exec(text.trim());
  return entry && PAGE_NUMBER.test(entry[2]) ? { label: entry[1], page: entry[2] } : undefined;
}

/** `text` without its dot leaders: one between two words becomes a space, one at an end goes. */
export function withoutLeaders(text: string): string {
  return text.replace(LEADER_RUN, ' ').trim();
}
