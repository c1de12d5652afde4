import { renderInline, type Piece } from '@docconv/model';
import { escapeHeadingText, escapeInlineSyntax, escapeLineStart, escapeText } from '@docconv/model';
import { linkDestination } from '@docconv/model';
import { gridRows, tableMarkdown, withoutLines, type PlacedCell } from '@docconv/model';
import { equationMarkdown } from './equation';
import type { Block, Caption, HancomDocument, Inline, Paragraph, Table } from './model';
import { mapPrivateUse } from './private-use';

/** A heading longer than this is a paragraph set in a heading style, written as body text. */
const MAX_HEADING_CHARS = 120;

/**
 * Hancom's own text for a picture with no description of its author's ("그림입니다. 원본 그림의
 * 이름: …"): a placeholder, not the author's words.
 */
const GENERATED_ALT = /^\s*그림입니다/;

/**
 * Markdown from an HWP or HWPX document read into the Hancom model. Paragraphs in document order;
 * outline paragraphs as headings and numbered paragraphs with the numbers Hancom draws (written as
 * text, so that no renderer numbers them again); bulleted paragraphs as list items; tables as GFM,
 * or HTML when cells are merged, with their captions; text boxes and charts (title, kind and data
 * table) after the paragraph they are anchored in; footnotes and endnotes as GFM footnotes,
 * numbered in order; a page or section break as a thematic break. The page header and footer text
 * is written once: headers at the start, footers at the end, each distinct text once, a paragraph
 * that held only a page number left out. Tables with
 * no text in any cell are left out (their captions stay). Hancom's private-use characters are
 * mapped to Unicode (`mapPrivateUse`).
 */
export function hancomMarkdown(document: HancomDocument): string {
  const writer = new MarkdownWriter();
  const headers = furniture(document.sections.flatMap((s) => s.headers).map((blocks) => writer.blocks(blocks)));
  const sections = document.sections.map((s) => writer.blocks(s.blocks)).filter((text) => text !== '');
  const footers = furniture(document.sections.flatMap((s) => s.footers).map((blocks) => writer.blocks(blocks)));
  const body = [...headers, sections.join('\n\n---\n\n'), ...footers].filter((text) => text !== '').join('\n\n');
  const notes = writer.notes.map((text, i) => `[^${i + 1}]: ${text}`).join('\n');
  const text = [body, notes]
    .filter((part) => part !== '')
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text === '' ? '' : `${text}\n`;
}

/**
 * Header or footer texts as written once: each distinct text once, without the blocks that held
 * nothing but a page number (`- 3 -` loses its number and keeps no letter or digit).
 */
function furniture(texts: string[]): string[] {
  const kept = texts.map((text) =>
    text
      .split('\n\n')
      .filter((block) => /[\p{L}\p{N}]/u.test(block))
      .join('\n\n'),
  );
  return [...new Set(kept.filter((text) => text !== ''))];
}

class MarkdownWriter {
  /** Footnote and endnote texts, in the order their references are written. */
  readonly notes: string[] = [];
  private nextLink = 1;

  /** Blocks as Markdown blocks separated by blank lines; a page break before a paragraph becomes `---`. */
  blocks(blocks: Block[]): string {
    const out: string[] = [];
    for (const block of blocks) {
      if (block.type === 'table') {
        out.push(...this.table(block));
        continue;
      }
      if (block.pageBreak && out.length > 0 && out[out.length - 1] !== '---') out.push('---');
      out.push(...this.paragraph(block));
    }
    while (out[out.length - 1] === '---') out.pop();
    return out.filter((text) => text !== '').join('\n\n');
  }

  /**
   * A paragraph on the page: its text, cut where a table anchored in it stands, then what its
   * other objects carry (text boxes, charts, pictures' descriptions and captions).
   */
  private paragraph(paragraph: Paragraph): string[] {
    const out: string[] = [];
    const anchored: string[] = [];
    let pieces: Piece[] = [];
    let first = true;
    const flush = (): void => {
      const text = this.pageText(pieces, paragraph, first);
      if (text !== '') {
        out.push(text);
        first = false;
      }
      pieces = [];
    };
    for (const inline of paragraph.inlines) {
      if (inline.type === 'table') {
        flush();
        out.push(...this.table(inline.table));
      } else if (inline.type === 'objects') {
        anchored.push(this.blocks(inline.blocks));
      } else if (inline.type === 'chart') {
        anchored.push(mapPrivateUse(inline.markdown));
      } else if (inline.type === 'image') {
        anchored.push(...this.image(inline.alt, inline.caption));
      } else {
        pieces.push(...this.pieces(inline));
      }
    }
    flush();
    return [...out, ...anchored];
  }

  /** The text of one stretch of a paragraph as a Markdown block, with the paragraph's role when it is the first. */
  private pageText(pieces: Piece[], paragraph: Paragraph, first: boolean): string {
    const text = renderInline(pieces);
    const label = first && paragraph.label !== '' ? escapeInlineSyntax(mapPrivateUse(paragraph.label)) : '';
    if (text === '') return ''; // an empty numbered paragraph's number alone says nothing
    const role = first ? paragraph.role : { kind: 'body' as const };
    const lines = text.split('\n');
    if (role.kind === 'heading') {
      const heading = [label, lines.join(' ')].filter((s) => s !== '').join(' ');
      if (heading.length <= MAX_HEADING_CHARS) return `${'#'.repeat(role.level)} ${escapeHeadingText(heading)}`;
    }
    if (role.kind === 'list' && !role.ordered) {
      const indent = '  '.repeat(Math.min(role.level, 5));
      return `${indent}- ${lines.map(escapeLineStart).join(`  \n${indent}  `)}`;
    }
    const labelled = label === '' ? lines : [`${label} ${lines[0]}`.trimEnd(), ...lines.slice(1)];
    return labelled.map(escapeLineStart).join('  \n');
  }

  /** One inline as the pieces the inline renderer takes. */
  private pieces(inline: Exclude<Inline, { type: 'table' | 'objects' | 'chart' | 'image' }>): Piece[] {
    switch (inline.type) {
      case 'text':
        return [
          {
            kind: 'text',
            text: mapPrivateUse(inline.text),
            bold: inline.bold === true,
            italic: inline.italic === true,
            strike: inline.strike === true,
          },
        ];
      case 'break':
        return [{ kind: 'break' }];
      case 'equation': {
        const markdown = equationMarkdown(mapPrivateUse(inline.script));
        return markdown === '' ? [] : [{ kind: 'raw', markdown: ` ${markdown} ` }];
      }
      case 'note': {
        const text = this.cellText(inline.blocks).replace(/\n/g, ' ');
        this.notes.push(text);
        return [{ kind: 'raw', markdown: `[^${this.notes.length}]` }];
      }
      case 'link': {
        // An address a reader cannot follow (javascript:, file:) leaves the text unlinked.
        const href = linkDestination(inline.href);
        const link = href === undefined ? undefined : { id: this.nextLink++, href };
        return inline.inlines.flatMap((inner) =>
          inner.type === 'table' || inner.type === 'objects' || inner.type === 'chart' || inner.type === 'image'
            ? []
            : this.pieces(inner).map((piece) => ({ ...piece, link })),
        );
      }
    }
  }

  private image(alt: string, caption: Caption | undefined): string[] {
    const description = mapPrivateUse(alt).replace(/\s+/g, ' ').trim();
    const text = description === '' || GENERATED_ALT.test(description) ? '' : escapeLineStart(escapeText(description));
    const captionText = caption ? this.blocks(caption.blocks) : '';
    return caption?.before ? [captionText, text] : [text, captionText];
  }

  /** A table with its caption; a table whose cells hold no text is left out, its caption kept. */
  private table(table: Table): string[] {
    const caption = table.caption ? this.blocks(table.caption.blocks) : '';
    const rows = this.rows(table);
    const grid = rows === undefined ? '' : tableMarkdown(rows);
    return table.caption?.before ? [caption, grid] : [grid, caption];
  }

  /**
   * The table's rows for `tableMarkdown`, or nothing when no cell holds text. Rows where no cell
   * starts (the lines a merged cell runs across) are left out, with the spans over them.
   */
  private rows(table: Table): ReturnType<typeof gridRows> | undefined {
    const cells: PlacedCell[] = table.cells.map((cell) => ({
      row: cell.row,
      col: cell.col,
      rowspan: cell.rowSpan,
      colspan: cell.colSpan,
      text: this.cellText(cell.blocks),
    }));
    if (table.rows === 0 || table.cols === 0 || cells.every((cell) => cell.text === '')) return undefined;
    const starts = Array.from({ length: table.rows }, (_, r) => r === 0);
    for (const cell of cells) if (cell.row >= 0 && cell.row < table.rows) starts[cell.row] = true;
    return gridRows(
      withoutLines(cells, starts, Array<boolean>(table.cols).fill(true)),
      starts.filter(Boolean).length,
      table.cols,
    );
  }

  /**
   * Blocks inside a table cell or a note as inline Markdown, one line per paragraph: a bullet or
   * number before its paragraph, a nested table's or a chart's rows as lines of cells joined by spaces.
   */
  private cellText(blocks: Block[]): string {
    const lines: string[] = [];
    for (const block of blocks) {
      if (block.type === 'table') {
        lines.push(...this.flatTable(block));
        continue;
      }
      let pieces: Piece[] = [];
      const nested: string[] = [];
      const flush = (): void => {
        const text = renderInline(pieces);
        if (text !== '') lines.push(...text.split('\n'));
        pieces = [];
      };
      for (const inline of block.inlines) {
        if (inline.type === 'table') {
          flush();
          lines.push(...this.flatTable(inline.table));
        } else if (inline.type === 'objects') {
          nested.push(this.cellText(inline.blocks));
        } else if (inline.type === 'chart') {
          nested.push(chartLines(mapPrivateUse(inline.markdown)).join('\n'));
        } else if (inline.type !== 'image') {
          pieces.push(...this.pieces(inline));
        }
      }
      const start = lines.length;
      flush();
      const label = block.role.kind === 'list' && !block.role.ordered ? '-' : mapPrivateUse(block.label);
      if (label !== '' && lines.length > start) lines[start] = `${escapeInlineSyntax(label)} ${lines[start]}`;
      lines.push(...nested.filter((text) => text !== ''));
    }
    return lines.filter((line) => line.trim() !== '').join('\n');
  }

  /** A table inside a cell or note as lines of text: a row's cells joined by spaces. */
  private flatTable(table: Table): string[] {
    const rows = this.rows(table) ?? [];
    const caption = table.caption ? this.cellText(table.caption.blocks) : '';
    const lines = rows
      .map((row) =>
        row
          .map((cell) => cell.text.replace(/\n/g, ' '))
          .filter((text) => text !== '')
          .join(' '),
      )
      .filter((line) => line !== '');
    return table.caption?.before ? [caption, ...lines] : [...lines, caption];
  }
}

/** A chart's Markdown as lines of text: its title line, then each row of its data table with the cells joined by spaces. */
function chartLines(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => !/^\|(?:\s*-+\s*\|)+$/.test(line))
    .map((line) =>
      line.startsWith('|')
        ? line
            .slice(1, -1)
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim().replace(/\\\|/g, '|'))
            .filter((cell) => cell !== '')
            .join(' ')
        : line.trim(),
    )
    .filter((line) => line !== '');
}
