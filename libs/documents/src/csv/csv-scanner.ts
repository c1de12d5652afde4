/**
 * What a `CsvScanner` reports, in order: each field of a record, then the record's end. A
 * handler may throw to stop the scan (a limit reached); the error leaves `write`.
 */
export interface CsvHandler {
  /** A field, the `index`-th of its record (from 0); `text` is '' when the scanner keeps no text. */
  field(text: string, index: number): void;
  /** The end of a record of `fields` fields. */
  record(fields: number): void;
}

type State =
  /** At a field's start, perhaps after spaces: a quote here opens a quoted field. */
  | 'start'
  /** Inside an unquoted field, or after a quoted field's closing quote. */
  | 'unquoted'
  /** Inside a quoted field. */
  | 'quoted'
  /** Just after a quote inside a quoted field: a second quote is a literal one, anything else closes the field. */
  | 'quote'
  /** After a quoted field's closing quote: spaces up to the delimiter are dropped, other text appended. */
  | 'closed';

const QUOTE = '"';

/**
 * Reads delimiter-separated values (CSV, TSV, semicolon- or pipe-separated) as they are written
 * in practice (RFC 4180 and what Excel and Python's `csv` accept), from text given in pieces:
 *
 * - a field in double quotes may hold the delimiter, line breaks and `""` for a quote; text after
 *   the closing quote is appended (`"a"b` is `ab`), and spaces around the quotes are dropped
 *   (`a, "b, c" ` has the two fields `a` and `b, c`);
 * - a quote inside an unquoted field is a literal character;
 * - records end at LF, CRLF or CR; a line break inside quotes is kept as LF;
 * - empty lines (and lines of spaces) are no records;
 * - a quote left open runs to the end of the text.
 *
 * It keeps no more than the field being read: with `keepText` false it keeps nothing, so a 10 MB
 * line of delimiters costs no memory, and the handler can refuse it at its 16,385th field.
 */
export class CsvScanner {
  private state: State = 'start';
  /** The current field's text so far (with `keepText`). */
  private text = '';
  /** Spaces read at the current field's start, which an opening quote drops. */
  private spaces = '';
  /** Fields ended in the current record. */
  private fields = 0;
  /** Whether the current record has a delimiter, a quote or any character but spaces. */
  private started = false;
  /** Whether the last character was a CR ending a record, so an LF right after it is not another. */
  private afterCr = false;
  /** Quotes read as literal characters, inside an unquoted field or after a closing quote: a sign of the wrong delimiter. */
  strayQuotes = 0;

  constructor(
    private readonly delimiter: string,
    private readonly handler: CsvHandler,
    private readonly keepText = true,
  ) {
    if (delimiter.length !== 1 || delimiter === QUOTE || delimiter === '\n' || delimiter === '\r') {
      throw new Error(
        `A CSV delimiter is one character other than a quote or a line break, not ${JSON.stringify(delimiter)}`,
      );
    }
  }

  /** Reads the next piece of the text. */
  write(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.afterCr) {
        this.afterCr = false;
        if (c === '\n') continue;
      }
      const end = this.plainRun(chunk, i);
      if (end > i) {
        // Inside a field, ordinary characters are taken a run at a time.
        this.started = true;
        if (this.keepText) this.text += chunk.slice(i, end);
        i = end - 1;
      } else this.read(c);
    }
  }

  /**
   * Where the run of characters from `i` that the current state takes as they are (inside an
   * unquoted field: all but the delimiter, a quote and line breaks; inside quotes: all but a
   * quote and CR) ends; `i` itself when there is none.
   */
  private plainRun(chunk: string, i: number): number {
    const quoted = this.state === 'quoted';
    if (!quoted && this.state !== 'unquoted') return i;
    let end = i;
    for (; end < chunk.length; end++) {
      const c = chunk[end];
      if (c === QUOTE || c === '\r' || (!quoted && (c === '\n' || c === this.delimiter))) break;
    }
    return end;
  }

  /** Ends the text: a record not ended by a line break ends here. */
  end(): void {
    this.endRecord();
  }

  private read(c: string): void {
    switch (this.state) {
      case 'start':
        return this.readAtStart(c);
      case 'unquoted':
        return this.readUnquoted(c);
      case 'quoted':
        return this.readQuoted(c);
      case 'quote':
        return this.readAfterQuote(c);
      case 'closed':
        return this.readClosed(c);
    }
  }

  private readAtStart(c: string): void {
    if (c === QUOTE) {
      this.spaces = '';
      this.started = true;
      this.state = 'quoted';
    } else if (c === ' ' || (c === '\t' && this.delimiter !== '\t')) {
      if (this.keepText) this.spaces += c;
    } else {
      this.text = this.spaces;
      this.spaces = '';
      this.state = 'unquoted';
      this.readUnquoted(c);
    }
  }

  private readUnquoted(c: string): void {
    if (c === this.delimiter) this.endField();
    else if (c === '\n' || c === '\r') this.endLine(c);
    else {
      this.started = true;
      if (c === QUOTE) this.strayQuotes++;
      if (this.keepText) this.text += c;
    }
  }

  private readQuoted(c: string): void {
    if (c === QUOTE) this.state = 'quote';
    else if (this.keepText) this.text += c === '\r' ? '\n' : c;
    // A CRLF inside quotes is one line break.
    if (c === '\r') this.afterCr = true;
  }

  private readAfterQuote(c: string): void {
    if (c === QUOTE) {
      if (this.keepText) this.text += QUOTE;
      this.state = 'quoted';
      return;
    }
    this.state = 'closed';
    this.readClosed(c);
  }

  private readClosed(c: string): void {
    if (c === ' ' || (c === '\t' && this.delimiter !== '\t')) {
      if (this.keepText) this.spaces += c;
    } else if (c === this.delimiter || c === '\n' || c === '\r') {
      this.spaces = '';
      this.readUnquoted(c);
    } else {
      this.text += this.spaces;
      this.spaces = '';
      this.state = 'unquoted';
      this.readUnquoted(c);
    }
  }

  private endLine(c: string): void {
    this.endRecord();
    this.afterCr = c === '\r';
  }

  private endField(): void {
    this.started = true;
    this.handler.field(this.keepText ? this.text + this.spaces : '', this.fields);
    this.fields++;
    this.text = '';
    this.spaces = '';
    this.state = 'start';
  }

  private endRecord(): void {
    if (this.started) {
      this.endField();
      this.handler.record(this.fields);
    }
    this.fields = 0;
    this.started = false;
    this.text = '';
    this.spaces = '';
    this.state = 'start';
  }
}
