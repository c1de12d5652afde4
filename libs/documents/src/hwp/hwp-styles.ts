import type { ParagraphRole } from '../hancom/model';
import { numberFormat, type Numbering, type NumberingLevel } from '../hancom/numbering';
import { styleRole, type CharShape } from '../hancom/styles';
import { HWPTAG, type HwpRecord } from './hwp-file';
import { counted, u16, u32 } from './hwp-records';

export type HeadingType = 'none' | 'outline' | 'number' | 'bullet';
export const HEADING_TYPES: HeadingType[] = ['none', 'outline', 'number', 'bullet'];

export interface ParaShape {
  heading: HeadingType;
  /** Outline or list level, 0 for the first. */
  level: number;
  /** The numbering or bullet it draws, counted from 1 (0 for none). */
  ref: number;
}

export interface StyleBook {
  charShapes: CharShape[];
  paraShapes: ParaShape[];
  numberings: Numbering[];
  bullets: string[];
  /** Per style, the heading its name makes of a paragraph, if any. */
  styleRoles: (ParagraphRole | undefined)[];
}

export function readStyleBook(records: HwpRecord[]): StyleBook {
  const book: StyleBook = { charShapes: [], paraShapes: [], numberings: [], bullets: [], styleRoles: [] };
  for (const { tag, data } of records) {
    switch (tag) {
      case HWPTAG.CHAR_SHAPE: {
        // Seven font ids, four seven-byte tables and the base size come before the attributes.
        const attributes = u32(data, 46);
        book.charShapes.push({
          italic: (attributes & 0x1) !== 0,
          bold: (attributes & 0x2) !== 0,
          superscript: (attributes & 0x8000) !== 0,
          subscript: (attributes & 0x10000) !== 0,
          strike: ((attributes >>> 18) & 0x7) !== 0,
        });
        break;
      }
      case HWPTAG.PARA_SHAPE: {
        const attributes = u32(data, 0);
        book.paraShapes.push({
          heading: HEADING_TYPES[(attributes >>> 23) & 0x3],
          level: (attributes >>> 25) & 0x7,
          ref: u16(data, 30),
        });
        break;
      }
      case HWPTAG.NUMBERING:
        book.numberings.push(readNumbering(data));
        break;
      case HWPTAG.BULLET:
        book.bullets.push(String.fromCharCode(u16(data, 12)).replace(/\0/g, ''));
        break;
      case HWPTAG.STYLE: {
        const [name, afterName] = counted(data, 0);
        const [englishName] = counted(data, afterName);
        book.styleRoles.push(styleRole([name, englishName]));
        break;
      }
      default:
        break;
    }
  }
  return book;
}

/**
 * A NUMBERING record: seven levels (each a 12-byte paragraph-head block whose bits 5–8 hold the
 * number format, then its pattern), the numbering's start, seven level starts, and in newer files
 * three more levels and their starts.
 */
export function readNumbering(data: Buffer): Numbering {
  const levels: NumberingLevel[] = [];
  let offset = 0;
  const readLevel = (): void => {
    const format = numberFormat((u32(data, offset) >>> 5) & 0xf);
    const [pattern, next] = counted(data, offset + 12);
    levels.push({ pattern, format, start: 1 });
    offset = next;
  };
  const readStarts = (from: number): void => {
    for (let l = from; l < levels.length && offset + 4 <= data.length; l++, offset += 4) {
      levels[l].start = Math.max(1, u32(data, offset));
    }
  };
  for (let l = 0; l < 7 && offset + 14 <= data.length; l++) readLevel();
  offset += 2; // the numbering's own start, which the level starts repeat
  readStarts(0);
  for (let l = 0; l < 3 && offset + 14 <= data.length; l++) readLevel();
  readStarts(7);
  return { levels };
}
