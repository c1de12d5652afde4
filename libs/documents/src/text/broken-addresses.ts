/**
 * A web address or e-mail address that a page broke at the end of a line: the next line's first
 * word goes on with it, and the two join with no space between them (and a hyphen at the break is
 * the address's own). Where the break leaves it open whether the address goes on (it ends a
 * sentence, or a word follows that no address would hold), the lines join as text does.
 */

/** Where an address starts: a scheme or `www.`, or a mailbox's name (with a letter) and `@`. */
const ADDRESS = /^(?:(?:https?|ftp):\/\/|www\.)\S|^[\w.+-]*[a-z][\w.+-]*@/i;
/** Characters an address may hold (RFC 3986's unreserved, reserved and `%`). */
const ADDRESS_CHARACTERS = /^[\w\-.~:/?#[\]@!$&'()*+,;=%]+$/;
/** What a sentence puts after an address: closing punctuation. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]>'"]+$/;
/** An address goes on after these at a line's end: no address ends with them. */
const OPEN_END = /[-=?&#%~_@]$/;
/** A line starting with one of these goes on with the address before it. */
const CONTINUATION_START = /^[./_\-?=&#%~]/;
/** Inside a word, what only addresses hold. */
const ADDRESS_PUNCTUATION = /[./_\-=?&#%~]/g;
/** A file's extension, or a domain's ending, that may stand alone after a break at a dot. */
const ENDINGS = new Set([
  'htm',
  'html',
  'pdf',
  'asp',
  'aspx',
  'php',
  'jsp',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'txt',
  'xml',
]);
const TOP_LEVEL_DOMAINS = new Set([
  'com',
  'org',
  'net',
  'gov',
  'edu',
  'int',
  'mil',
  'info',
  'eu',
  'uk',
  'de',
  'fr',
  'kr',
]);

/** The word `text` ends with, without what opens a quotation or a bracket before it. */
function lastWord(text: string): string {
  return text.slice(text.search(/\S*$/)).replace(/^[(<["']+/, '');
}

/** Whether the line `next` goes on with the address that `text` ends with (see the module's doc). */
export function continuesAddress(text: string, next: string): boolean {
  const tail = lastWord(text);
  if (!ADDRESS.test(tail)) return false;
  const head = next.trimStart().split(/\s/, 1)[0];
  const core = head.replace(TRAILING_PUNCTUATION, '');
  // A line that starts an address of its own (a list of them, one a line) does not go on with the one before.
  if (core === '' || !ADDRESS_CHARACTERS.test(core) || ADDRESS.test(core)) return false;
  if (CONTINUATION_START.test(core) || OPEN_END.test(tail)) return true;
  const inside = (core.match(ADDRESS_PUNCTUATION) ?? []).length;
  const lower = /^[a-z0-9]/.test(core);
  // After a dot a sentence may end: what follows goes on only if it is no word of a sentence.
  if (tail.endsWith('.')) return lower && (inside > 0 || ENDINGS.has(core) || TOP_LEVEL_DOMAINS.has(core));
  // After a slash a word may follow the address ("…/ for details"): a path or a number goes on.
  if (tail.endsWith('/') || tail.endsWith(':')) return inside > 0 || /\d/.test(core);
  // Broken inside a word: only a stretch that is plainly more of a path goes on.
  return lower && (inside >= 2 || /\.[a-z]{2,4}$/.test(core));
}
