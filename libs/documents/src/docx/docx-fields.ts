import { linkDestination } from '@docconv/model';

/** A complex field (`w:fldChar` begin … separate … end) that is open at the current run. */
interface OpenField {
  instruction: string;
  showingResult: boolean;
  link?: string;
}

/**
 * The complex fields open at the current run of a part: whether text shows (a field's
 * instruction does not, its result does) and the link a HYPERLINK field gives its result.
 */
export class FieldStack {
  private fields: OpenField[] = [];

  /** A `w:fldChar` of type begin, separate or end. */
  char(type: string | undefined): void {
    if (type === 'begin') this.fields.push({ instruction: '', showingResult: false });
    else if (type === 'separate') {
      const field = this.fields.at(-1);
      if (field && !field.showingResult) {
        field.showingResult = true;
        field.link = fieldLink(field.instruction);
      }
    } else if (type === 'end') this.fields.pop();
  }

  /** A `w:instrText`: more of the innermost field's instruction. */
  instruction(text: string): void {
    const field = this.fields.at(-1);
    if (field && !field.showingResult) field.instruction += text;
  }

  /** Text shows unless it belongs to a field's instruction. */
  visible(): boolean {
    return this.fields.every((f) => f.showingResult);
  }

  /** The link of the innermost HYPERLINK field whose result is showing. */
  link(): string | undefined {
    for (let i = this.fields.length - 1; i >= 0; i--) {
      const link = this.fields[i].link;
      if (link) return link;
    }
    return undefined;
  }
}

/** The link of a HYPERLINK field instruction; undefined for other fields and for links inside the document. */
export function fieldLink(instruction: string): string | undefined {
  const match = /^\s*HYPERLINK\s+(.*)$/is.exec(instruction);
  if (!match) return undefined;
  const tokens = [...match[1].matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
  let url: string | undefined;
  let anchor: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (/^\\[lo]$/i.test(token)) {
      if (token.toLowerCase() === '\\l') anchor = tokens[i + 1];
      i++;
    } else if (token.startsWith('\\')) continue;
    else url ??= token;
  }
  if (url === undefined) return undefined;
  return linkDestination(anchor === undefined ? url : `${url}#${anchor}`);
}
