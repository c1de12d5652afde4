import type { StyleBook } from './docx-styles';
import { attr, child, elements, intVal, onOff, val, type XmlElement } from './xml-tree';
import { romanNumeral } from '../roman-numeral';

/**
 * How a numbered paragraph shows in Markdown:
 * - `bullet`: a bulleted item;
 * - `ordered`: a numbered item whose number Markdown can write (`3.` or `3)`);
 * - `label`: an item whose label Markdown cannot express as a list marker (`1.2.1`, `(a)`, `Article 4`),
 *   written as a bulleted item that starts with the label;
 * - `none`: the level shows no label, so the paragraph is not a list item.
 */
export interface ListLabel {
  kind: 'bullet' | 'ordered' | 'label' | 'none';
  /** The counter value of the paragraph's own level. */
  number: number;
  delimiter: '.' | ')';
  /** The label as Word draws it (`1.2.`, `a)`, `•`). */
  text: string;
  /** Identifies the list, so adjacent but distinct lists stay apart. */
  listKey: string;
}

interface LevelDefinition {
  start: number;
  format: string;
  text: string;
  pStyle?: string;
  legal: boolean;
}

interface NumDefinition {
  abstractId: string;
  startOverrides: Map<number, number>;
  levelOverrides: Map<number, LevelDefinition>;
}

interface ListState {
  counters: (number | undefined)[];
  started: Set<string>;
  /** Counts restarts, so a restarted list is a different list. */
  instance: number;
}

const LEVELS = 9;

/** The numbering part plus the running counters of every list, in document order. */
export class Numbering {
  private readonly abstracts = new Map<string, { levels: Map<number, LevelDefinition>; styleLink?: string }>();
  private readonly nums = new Map<string, NumDefinition>();
  private readonly states = new Map<string, ListState>();

  constructor(
    root: XmlElement | undefined,
    private readonly styles: StyleBook,
  ) {
    for (const abstract of elements(root, 'w:abstractNum')) {
      const id = attr(abstract, 'w:abstractNumId');
      if (id === undefined) continue;
      const levels = new Map<number, LevelDefinition>();
      for (const lvl of elements(abstract, 'w:lvl')) {
        const ilvl = Number(attr(lvl, 'w:ilvl') ?? '0');
        if (Number.isInteger(ilvl) && ilvl >= 0 && ilvl < LEVELS) levels.set(ilvl, levelDefinition(lvl));
      }
      this.abstracts.set(id, { levels, styleLink: val(abstract, 'w:numStyleLink') });
    }
    for (const num of elements(root, 'w:num')) {
      const id = attr(num, 'w:numId');
      const abstractId = val(num, 'w:abstractNumId');
      if (id === undefined || abstractId === undefined) continue;
      const startOverrides = new Map<number, number>();
      const levelOverrides = new Map<number, LevelDefinition>();
      for (const override of elements(num, 'w:lvlOverride')) {
        const ilvl = Number(attr(override, 'w:ilvl') ?? '0');
        const start = intVal(override, 'w:startOverride');
        if (start !== undefined) startOverrides.set(ilvl, start);
        const lvl = child(override, 'w:lvl');
        if (lvl) levelOverrides.set(ilvl, levelDefinition(lvl));
      }
      this.nums.set(id, { abstractId, startOverrides, levelOverrides });
    }
  }

  /** The level a paragraph style is tied to in a numbering (`w:lvl/w:pStyle`), if any. */
  levelOfStyle(numId: string, styleId: string | undefined): number | undefined {
    if (styleId === undefined) return undefined;
    const num = this.nums.get(numId);
    const levels = num && this.abstractLevels(num.abstractId);
    if (!levels) return undefined;
    for (const [ilvl, level] of levels) if (level.pStyle === styleId) return ilvl;
    return undefined;
  }

  /** Counts one paragraph of list `numId` at level `ilvl` and returns its label; undefined when not a list. */
  next(numId: string, ilvl: number): ListLabel | undefined {
    const num = this.nums.get(numId);
    if (!num) return undefined;
    const abstractId = this.resolveAbstractId(num.abstractId);
    const levels = this.abstractLevels(abstractId);
    const levelOf = (l: number): LevelDefinition | undefined => num.levelOverrides.get(l) ?? levels?.get(l);
    const level = levelOf(ilvl);
    if (!level) return undefined;

    let state = this.states.get(abstractId);
    if (!state) {
      state = { counters: [], started: new Set(), instance: 0 };
      this.states.set(abstractId, state);
    }
    // Lists sharing an abstract numbering continue each other, unless a list restarts a level.
    if (!state.started.has(numId)) {
      state.started.add(numId);
      if (num.startOverrides.size > 0 && state.started.size > 1) state.instance++;
      for (const l of num.startOverrides.keys()) state.counters[l] = undefined;
    }
    const startOf = (l: number): number => num.startOverrides.get(l) ?? levelOf(l)?.start ?? 1;
    const current = state.counters[ilvl];
    state.counters[ilvl] = current === undefined ? startOf(ilvl) : current + 1;
    for (let l = ilvl + 1; l < LEVELS; l++) state.counters[l] = undefined;

    const counters = state.counters;
    const valueOf = (l: number): number => counters[l] ?? startOf(l);
    const text = level.text.replace(/%([1-9])/g, (_, digit: string) => {
      const l = Number(digit) - 1;
      const format = levelOf(l)?.format ?? 'decimal';
      // A bullet level has no number of its own to show; its counter is shown as a digit.
      return formatNumber(valueOf(l), level.legal || format === 'bullet' ? 'decimal' : format);
    });
    const number = valueOf(ilvl);
    const listKey = `${abstractId}/${state.instance}`;
    const placeholders = level.text.match(/%[1-9]/g) ?? [];

    if (level.format === 'bullet') return { kind: 'bullet', number, delimiter: '.', text, listKey };
    if (level.format === 'none' || text.trim() === '') return { kind: 'none', number, delimiter: '.', text, listKey };
    if (placeholders.length === 0) return { kind: 'bullet', number, delimiter: '.', text, listKey };
    const rest = level.text.replace(`%${ilvl + 1}`, '');
    if (
      placeholders.length === 1 &&
      placeholders[0] === `%${ilvl + 1}` &&
      (level.format === 'decimal' || level.format === 'decimalZero') &&
      /^[.)]?$/.test(rest.trim())
    ) {
      return { kind: 'ordered', number, delimiter: rest.trim() === ')' ? ')' : '.', text, listKey };
    }
    return { kind: 'label', number, delimiter: '.', text: text.trim(), listKey };
  }

  private resolveAbstractId(abstractId: string): string {
    let id = abstractId;
    for (let hops = 0; hops < 8; hops++) {
      const abstract = this.abstracts.get(id);
      if (!abstract || abstract.levels.size > 0 || abstract.styleLink === undefined) return id;
      const numId = this.styles.numberingStyleNumId(abstract.styleLink);
      const linked = numId === undefined ? undefined : this.nums.get(numId);
      if (!linked || linked.abstractId === id) return id;
      id = linked.abstractId;
    }
    return id;
  }

  private abstractLevels(abstractId: string): Map<number, LevelDefinition> | undefined {
    return this.abstracts.get(this.resolveAbstractId(abstractId))?.levels;
  }
}

function levelDefinition(lvl: XmlElement): LevelDefinition {
  return {
    start: intVal(lvl, 'w:start') ?? 1,
    format: val(lvl, 'w:numFmt') ?? 'decimal',
    text: val(lvl, 'w:lvlText') ?? '',
    pStyle: val(lvl, 'w:pStyle'),
    legal: onOff(lvl, 'w:isLgl') ?? false,
  };
}

/** A counter value in a Word number format; formats Markdown readers would not know fall back to digits. */
export function formatNumber(value: number, format: string): string {
  switch (format) {
    case 'decimalZero':
      return value < 10 && value >= 0 ? `0${value}` : String(value);
    case 'upperRoman':
      return romanNumeral(value);
    case 'lowerRoman':
      return romanNumeral(value).toLowerCase();
    case 'upperLetter':
      return letters(value);
    case 'lowerLetter':
      return letters(value).toLowerCase();
    case 'ordinal':
      return ordinal(value);
    case 'bullet':
    case 'none':
      return '';
    default:
      return String(value);
  }
}

/** A, B, …, Z, AA, BB, … as Word counts letters. */
function letters(value: number): string {
  if (value <= 0) return String(value);
  const letter = String.fromCharCode(65 + ((value - 1) % 26));
  return letter.repeat(Math.floor((value - 1) / 26) + 1);
}

function ordinal(value: number): string {
  const tens = value % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][value % 10] ?? 'th');
  return `${value}${suffix}`;
}
