import type { ParagraphRole } from './model';

/** A character shape's emphasis, as HWP's CHAR_SHAPE record and HWPX's charPr both give it. */
export interface CharShape {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  superscript: boolean;
  subscript: boolean;
}

const EMPHASIS = ['bold', 'italic', 'strike', 'superscript', 'subscript'] as const;

/** The emphasis a run of a character shape carries: only what is set. */
export function formatting(shape: CharShape | undefined): Partial<CharShape> {
  const out: Partial<CharShape> = {};
  for (const key of EMPHASIS) if (shape?.[key]) out[key] = true;
  return out;
}

/** Whether two runs carry the same emphasis. */
export function sameEmphasis(a: Partial<CharShape>, b: Partial<CharShape>): boolean {
  return EMPHASIS.every((key) => (a[key] ?? false) === (b[key] ?? false));
}

const OUTLINE_STYLE = /^(?:개요|outline)\s*(\d+)$/i;
const HEADING_STYLE = /^(?:제목|heading)\s*(\d+)$/i;
const TITLE_STYLE = /^(?:제목|title|대제목)$/i;

/**
 * The heading a paragraph style makes of a paragraph whose shape draws no outline number, from
 * the style's Korean or English name: 개요 n / Outline n and 제목 n / Heading n are level n
 * (at most 6), 제목 / Title / 대제목 level 1. Other styles make none.
 */
export function styleRole(names: readonly string[]): ParagraphRole | undefined {
  for (const raw of names) {
    const name = raw.trim();
    const numbered = OUTLINE_STYLE.exec(name) ?? HEADING_STYLE.exec(name);
    if (numbered) return { kind: 'heading', level: Math.min(6, Math.max(1, Number(numbered[1]))) };
    if (TITLE_STYLE.test(name)) return { kind: 'heading', level: 1 };
  }
  return undefined;
}
