/**
 * An evaluation set: its inputs (`<format>/<name>.<ext>`) and the references beside each of them,
 * read into the shapes the scorer compares against.
 */
import { mapPrivateUse } from '@docconv/reading';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { hancomReference, isHancomExport } from './hancom';
import { parseChecks, parseTests, type Checks } from './olmocr';
import type { ReferenceGroup } from './report';
import {
  htmlToText,
  isTablesOnlyReference,
  parseDoclingTables,
  parseHtmlTables,
  tableHasText,
  type Table,
} from './tables';

const REFERENCE_SUFFIXES = ['.ref.md', '.ref.txt', '.ref.json', '.ref.html', '.tests.jsonl', '.checks.json'];

export interface Input {
  /** Absolute path. */
  path: string;
  /** Relative to the set. */
  relative: string;
  format: string;
  /** `<format>/<name>`: references are this plus a suffix. */
  stem: string;
}

/** Every input of a set: files in its format folders that are not references, in name order. */
export async function findInputs(set: string): Promise<Input[]> {
  const inputs: Input[] = [];
  const folders = (await readdir(set, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  for (const format of folders) {
    const files = (await readdir(join(set, format), { withFileTypes: true }))
      .filter((e) => e.isFile() && !e.name.startsWith('.') && !REFERENCE_SUFFIXES.some((s) => e.name.endsWith(s)))
      .map((e) => e.name)
      .sort();
    for (const file of files) {
      const name = extname(file) ? file.slice(0, -extname(file).length) : file;
      inputs.push({
        path: join(set, format, file),
        relative: `${format}/${file}`,
        format,
        stem: join(set, format, name),
      });
    }
  }
  return inputs;
}

export interface References {
  files: string[];
  errors: string[];
  text: Partial<Record<ReferenceGroup, string>>;
  /** The `.ref.md` (docling group), for heading structure: only a Markdown reference has headings to compare. */
  markdown?: string;
  /** The text of a Hancom Office export (`.ref.html`) in visual reading order (independent group). */
  visual?: string;
  tables: Partial<Record<ReferenceGroup, Table[]>>;
  tests?: Record<string, unknown>[];
  checks?: Checks;
}

/** hwpjs opens its snapshots with a title and a metadata line (paper size or version) that are not document content. */
function withoutHwpjsPreamble(markdown: string): string {
  return markdown.replace(/^\uFEFF?\s*# HWP 문서[ \t]*\r?\n(?:[ \t]*\r?\n)*\*\*[^*\n]+\*\*:[^\n]*\r?\n/, '');
}

async function readOptional(path: string): Promise<string | undefined> {
  return existsSync(path) ? readFile(path, 'utf8') : undefined;
}

/**
 * An input's references. Docling's snapshots (`.ref.md`, `.ref.json`, docling's `.ref.html`)
 * and hwpjs's (`.ref.md` of hwp/hwpx) form one group; `.ref.txt`, Hancom Office's `.ref.html`,
 * `.tests.jsonl` and `.checks.json` the other. A `.ref.html` that is Hancom Office's positioned
 * export (whatever the input's format) gives the visual-order text and the tables with text
 * (see hancom.ts; an all-empty grid is a placeholder, left out of TEDS as it is of exactness);
 * the `.ref.txt` beside it, the same HTML with its tags stripped in source order, is still scored
 * as text similarity (.ref.txt). A reference that cannot be read is reported and left out; it
 * does not fail the input.
 */
export async function loadReferences(input: Input, set: string): Promise<References> {
  const refs: References = { files: [], errors: [], text: {}, tables: {} };
  const read = async (suffix: string): Promise<string | undefined> => {
    const path = input.stem + suffix;
    const content = await readOptional(path);
    if (content !== undefined) refs.files.push(relative(set, path));
    return content?.replace(/^\uFEFF/, '');
  };
  const attempt = (file: string, work: () => void): void => {
    try {
      work();
    } catch (error) {
      refs.errors.push(`${basename(input.stem)}${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const markdown = await read('.ref.md');
  if (markdown !== undefined) {
    refs.markdown = input.format === 'hwp' || input.format === 'hwpx' ? withoutHwpjsPreamble(markdown) : markdown;
    refs.text.docling = refs.markdown;
  }
  const text = await read('.ref.txt');
  if (text !== undefined) refs.text.independent = text;

  const json = await read('.ref.json');
  if (json !== undefined) {
    attempt('.ref.json', () => {
      const tables = parseDoclingTables(JSON.parse(json));
      if (tables.length > 0) refs.tables.docling = tables;
    });
  }
  const html = await read('.ref.html');
  if (html !== undefined && isHancomExport(html)) {
    // The .ref.txt beside an export is its text: its private-use characters are read the same way.
    if (refs.text.independent !== undefined) refs.text.independent = mapPrivateUse(refs.text.independent);
    attempt('.ref.html', () => {
      const hancom = hancomReference(html);
      if (!hancom) return;
      refs.visual = hancom.text;
      const tables = hancom.tables.filter(tableHasText);
      if (tables.length > 0 && refs.tables.independent === undefined) refs.tables.independent = tables;
    });
  } else if (html !== undefined) {
    const group: ReferenceGroup = /<meta[^>]+generator[^>]+docling/i.test(html) ? 'docling' : 'independent';
    // A tables-only reference (the ICDAR 2013 structure annotations) holds no page text: its tables are scored, never text similarity.
    const tablesOnly = isTablesOnlyReference(html);
    attempt('.ref.html', () => {
      const tables = parseHtmlTables(html);
      if (tables.length > 0 && refs.tables[group] === undefined) refs.tables[group] = tables;
      if (!tablesOnly && refs.text[group] === undefined) refs.text[group] = htmlToText(html);
    });
  }

  const tests = await read('.tests.jsonl');
  if (tests !== undefined) {
    const parsed = parseTests(tests);
    refs.tests = parsed.tests;
    refs.errors.push(...parsed.errors.map((e) => `${basename(input.stem)}.tests.jsonl ${e}`));
  }
  const checks = await read('.checks.json');
  if (checks !== undefined) {
    attempt('.checks.json', () => (refs.checks = parseChecks(JSON.parse(checks))));
  }
  return refs;
}
