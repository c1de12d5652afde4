const MAX_LENGTH = 31;

/** Excel refuses "History" as a sheet name (it is kept for change tracking). */
const RESERVED = ['history'];

/**
 * Hands out worksheet names Excel accepts: at most 31 characters, none of `: \ / ? * [ ]`, not blank, not
 * starting or ending with an apostrophe, and unique ignoring case — a repeated name gets " (2)", " (3)", ...
 * Names passed to `reserve` are taken up front so later sheets cannot claim them.
 */
export class SheetNamer {
  private readonly taken = new Set<string>(RESERVED);

  /** Claims a fixed name (such as "Text") so tables named the same get a suffix instead. */
  reserve(name: string): string {
    this.taken.add(name.toLowerCase());
    return name;
  }

  /** A valid, unused name as close to `wanted` as possible; `fallback` when `wanted` has nothing usable. */
  next(wanted: string | null, fallback = 'Table'): string {
    const base = cleanSheetName(wanted ?? '', Infinity) || fallback;
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const name = cleanSheetName(base, MAX_LENGTH - suffix.length) + suffix;
      if (!this.taken.has(name.toLowerCase())) return this.reserve(name);
    }
  }
}

/**
 * The name with slashes turned into dashes, other forbidden characters into spaces, and apostrophes trimmed
 * from the ends, cut to `length` at a word boundary when one is not too far back ("Table 3-1 Special registers",
 * not "Table 3-1 Special registers and t").
 */
export function cleanSheetName(name: string, length = MAX_LENGTH): string {
  const cleaned = name
    .replace(/[\\/]/g, '-')
    .replace(/[:?*[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return atWordBoundary(cleaned, length).replace(/^[\s'.,;-]+|[\s'.,;-]+$/g, '');
}

function atWordBoundary(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = truncate(text, length);
  const space = text[cut.length] === ' ' ? cut.length : cut.lastIndexOf(' ');
  return space >= length / 2 ? cut.slice(0, space) : cut;
}

/** At most `length` UTF-16 units, without cutting a surrogate pair in half. */
function truncate(text: string, length: number): string {
  const cut = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
