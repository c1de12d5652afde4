import { ocrRuns, type PageReport } from '../ocr/ocr-page';
import type { PageReader } from '../ocr/page-reader';
import type { TextRun } from './layout';
import { renderPage, type PageArea } from './render-page';

/**
 * Text a PDF draws in a font without a usable Unicode map (its text layer is garbage there):
 * the areas it covers are rendered and read by the job's OCR engine, and bullets drawn with
 * such a font are kept as marks.
 */

/** Unreadable text this short (characters) is not worth an OCR pass: a stray symbol or two. */
const MIN_UNREADABLE_CHARS = 8;

/**
 * Areas of a page whose text layer is garbage (a font without a usable Unicode map), read by
 * the job's OCR engine: each area is rendered on its own and its words take the garbage's place.
 */
export async function readUnreadable(
  path: string,
  page: number,
  garbage: TextRun[],
  reader: PageReader,
): Promise<{ runs: TextRun[]; report: (page: number) => PageReport } | undefined> {
  if (garbage.reduce((n, r) => n + r.text.length, 0) < MIN_UNREADABLE_CHARS) return undefined;
  const { dpi } = reader.options;
  const runs: TextRun[] = [];
  const confidences: number[] = [];
  let engine = '';
  const bullets = glyphBullets(garbage);
  const onBullet = (run: TextRun) =>
    bullets.some(
      (b) => run.x + run.width / 2 >= b.x && run.x + run.width / 2 <= b.x + b.width && Math.abs(run.y - b.y) < b.size,
    );
  for (const area of areasOf(garbage)) {
    const result = await reader.read(await renderPage(path, page, dpi, area));
    engine = result.engine;
    if (result.lines.length > 0) confidences.push(result.confidence);
    for (const line of ocrRuns(result, 72 / dpi)) {
      // What OCR makes of a bullet's glyph is not text: the bullet is put back as a mark.
      runs.push(
        ...line.map((run) => ({ ...run, x: run.x + area.x, y: run.y + area.y })).filter((run) => !onBullet(run)),
      );
    }
  }
  runs.push(...bullets);
  const confidence = confidences.length > 0 ? confidences.reduce((a, b) => a + b) / confidences.length : 0;
  return {
    runs,
    report: (n) => ({
      page: n,
      source: 'text+ocr',
      engine,
      confidence: Math.round(confidence * 10) / 10,
      notes: ['Some text on this page has no readable text layer (its font has no Unicode map); it was read by OCR.'],
    }),
  };
}

/**
 * Bullets drawn with the first glyph of unreadable runs: the same code opening two or more runs
 * that start at the same place, ahead of the text (a sidebar's list in a font without a Unicode
 * map). Each becomes a mark one glyph wide where it stands.
 */
function glyphBullets(garbage: TextRun[]): TextRun[] {
  const starts = new Map<string, TextRun[]>();
  for (const run of garbage) {
    const first = run.text.trimStart()[0];
    // eslint-disable-next-line no-control-regex -- a bullet drawn with a control code is what is looked for
    if (!first || run.text.trim().length < 3 || !/[\u0000-\u001f\ue000-\uf8ff]/.test(first)) continue;
    const key = `${first}@${Math.round(run.x)}`;
    starts.set(key, [...(starts.get(key) ?? []), run]);
  }
  return [...starts.values()]
    .filter((runs) => runs.length >= 2)
    .flatMap((runs) => runs.map((run) => ({ ...run, text: '•', width: run.width / [...run.text].length, mark: true })));
}

/** The areas unreadable runs cover: their boxes, a line's height around each, merged where they touch. */
function areasOf(runs: TextRun[]): PageArea[] {
  const areas: PageArea[] = [];
  for (const run of [...runs].sort((a, b) => a.y - b.y)) {
    const pad = run.size;
    const box = {
      x: run.x - pad,
      y: run.y - run.size - pad,
      width: run.width + 2 * pad,
      height: run.size * 1.3 + 2 * pad,
    };
    const touching = areas.find(
      (a) => box.x < a.x + a.width && a.x < box.x + box.width && box.y < a.y + a.height && a.y < box.y + box.height,
    );
    if (!touching) {
      areas.push(box);
      continue;
    }
    const right = Math.max(touching.x + touching.width, box.x + box.width);
    const bottom = Math.max(touching.y + touching.height, box.y + box.height);
    touching.x = Math.min(touching.x, box.x);
    touching.y = Math.min(touching.y, box.y);
    touching.width = right - touching.x;
    touching.height = bottom - touching.y;
  }
  return areas.map((a) => ({ ...a, x: Math.max(0, a.x), y: Math.max(0, a.y) }));
}
