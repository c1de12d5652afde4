import { CsvScanner } from './csv-scanner';

/** Delimiters a CSV may use, in the order a tie goes: comma, semicolon (European Excel), tab, pipe. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** How much of a text the sniffer reads: enough records to judge, few enough to be quick. */
const SAMPLE_CHARACTERS = 64 * 1024;
const SAMPLE_RECORDS = 100;

/**
 * The delimiter of a CSV text: the one an Excel `sep=` first line declares, or else the candidate
 * that splits the first records into the same number of fields most consistently, quotes
 * respected (a delimiter inside a quoted field does not count). A candidate that leaves most
 * records whole is not the delimiter. Among equally consistent ones wins, in turn, the one that
 * leaves fewer quotes in the middle of fields (with the right delimiter, quotes open and close
 * fields), the one making more columns (`Lozano, Dr` inside tab-separated fields), and the
 * first in `DELIMITERS`. A text no candidate splits is one column: comma.
 */
export function sniffDelimiter(text: string): string {
  const declared = declaredDelimiter(text);
  if (declared !== undefined) return declared;
  const sample = completeRecords(text);
  let best: Split | undefined;
  for (const delimiter of DELIMITERS) {
    const split = splitWith(sample, delimiter);
    if (split.columns >= 2 && (!best || better(split, best))) best = split;
  }
  return best?.delimiter ?? ',';
}

/** How a delimiter splits the sample. */
interface Split {
  delimiter: string;
  /** The commonest number of fields in a record. */
  columns: number;
  /** Share of the records with that many fields. */
  consistency: number;
  /** Quotes read as literal characters. */
  strayQuotes: number;
}

function better(a: Split, b: Split): boolean {
  if (a.consistency !== b.consistency) return a.consistency > b.consistency;
  if (a.strayQuotes !== b.strayQuotes) return a.strayQuotes < b.strayQuotes;
  return a.columns > b.columns;
}

/** How `delimiter` splits the first records of `text`. */
function splitWith(text: string, delimiter: string): Split {
  const counts: number[] = [];
  const scanner = new CsvScanner(
    delimiter,
    {
      field: () => undefined,
      record: (fields) => {
        if (counts.length < SAMPLE_RECORDS) counts.push(fields);
      },
    },
    false,
  );
  scanner.write(text);
  scanner.end();
  const columns = mode(counts);
  const consistency = counts.length === 0 ? 0 : counts.filter((count) => count === columns).length / counts.length;
  return { delimiter, columns, consistency, strayQuotes: scanner.strayQuotes };
}

/**
 * The delimiter an Excel `sep=` first line declares (`sep=;`), which Excel reads and hides, or
 * undefined.
 */
export function declaredDelimiter(text: string): string | undefined {
  return /^sep=([^\r\n"])[ \t]*(?:\r\n?|\n|$)/i.exec(text)?.[1];
}

/** The start of a text, cut after its last line break when it is longer than the sample. */
function completeRecords(text: string): string {
  if (text.length <= SAMPLE_CHARACTERS) return text;
  const sample = text.slice(0, SAMPLE_CHARACTERS);
  const end = sample.lastIndexOf('\n');
  return end > 0 ? sample.slice(0, end) : sample;
}

/** The commonest value (the larger on a tie), or 0 for none. */
function mode(values: number[]): number {
  const frequency = new Map<number, number>();
  for (const value of values) frequency.set(value, (frequency.get(value) ?? 0) + 1);
  let best = 0;
  let bestFrequency = 0;
  for (const [value, count] of frequency) {
    if (count > bestFrequency || (count === bestFrequency && value > best)) {
      best = value;
      bestFrequency = count;
    }
  }
  return best;
}
