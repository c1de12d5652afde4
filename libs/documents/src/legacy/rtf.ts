/**
 * Rich Text Format for intake: the page count Word stores in the document information, and a
 * rough plain text for documents that store none. The text is for counting characters, not
 * for reading: groups that hold no body text (font and colour tables, style sheets, document
 * information, pictures, embedded object data, ignorable `\*` destinations) are skipped, and
 * every control word that ends a paragraph, line, cell or tab becomes a space.
 */

/** `\nofpages N` inside `{\info …}`: the page count Word saved. */
export function rtfStoredPages(rtf: string): number | undefined {
  const info = rtf.indexOf('{\\info');
  if (info < 0) return undefined;
  const match = /\\nofpages(\d+)/.exec(rtf.slice(info, info + 64 * 1024));
  return match ? Number(match[1]) : undefined;
}

/** Destinations whose content is not body text. */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'objdata',
  'nonshppict',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'filetbl',
  'revtbl',
  'pgdsctbl',
  'fldinst',
  'sp',
]);

/** Control words that separate text. */
const BREAKS = new Set(['par', 'line', 'sect', 'page', 'tab', 'cell', 'row', 'column']);

interface GroupState {
  skip: boolean;
  /** How many characters follow each `\u` as its fallback for old readers. */
  unicodeSkip: number;
}

/** A rough plain text of an RTF document: its body characters, with separators as spaces. */
export function rtfRoughText(rtf: string): string {
  const out: string[] = [];
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, unicodeSkip: 1 };
  let groupStart = false;
  let pendingSkip = 0;
  const emit = (text: string): void => {
    if (pendingSkip > 0) {
      pendingSkip--;
      return;
    }
    if (!state.skip) out.push(text);
  };
  let i = 0;
  while (i < rtf.length) {
    const ch = rtf[i];
    if (ch === '{') {
      stack.push(state);
      state = { ...state };
      groupStart = true;
      i++;
      continue;
    }
    if (ch === '}') {
      state = stack.pop() ?? state;
      groupStart = false;
      i++;
      continue;
    }
    if (ch === '\\') {
      const control = /^\\(?:([a-zA-Z]{1,32})(-?\d{1,10})? ?|'([0-9a-fA-F]{2})|(.))/s.exec(rtf.slice(i, i + 48));
      if (!control) break;
      i += control[0].length;
      const [, word, parameter, hex, symbol] = control;
      if (hex !== undefined) emit(String.fromCharCode(parseInt(hex, 16)));
      else if (symbol === '*') state.skip = true;
      else if (symbol !== undefined) emit(symbol === '~' ? ' ' : symbol === '-' ? '' : symbol === '_' ? '-' : symbol);
      else if (word === 'bin') i += Math.max(0, Number(parameter ?? 0));
      else if (groupStart && SKIPPED.has(word)) state.skip = true;
      else if (word === 'uc') state.unicodeSkip = Math.max(0, Number(parameter ?? 1));
      else if (word === 'u') {
        const code = Number(parameter ?? 0);
        emit(String.fromCharCode(code < 0 ? code + 0x10000 : code));
        pendingSkip = state.unicodeSkip;
      } else if (BREAKS.has(word)) emit(' ');
      groupStart = false;
      continue;
    }
    if (ch !== '\r' && ch !== '\n') emit(ch);
    groupStart = false;
    i++;
  }
  return out.join('');
}
