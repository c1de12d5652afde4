import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdftoppm } from './render-page';

/** A place on a page, in points from its top-left corner: [x0, y0, x1, y1]. */
export type PageBox = [number, number, number, number];

/** Where a figure is drawn, and whether it is a photograph (a JPEG in the file): rendered as JPEG, anything else as PNG. */
export interface FigureArea {
  box: PageBox;
  photo: boolean;
}

/** A picture smaller than this share of the page is an ornament (a logo, an icon), not a figure. */
const MIN_PAGE_SHARE = 0.03;

/** Whether a picture or a drawing `width` by `height` is large enough to be a figure on a page `pageWidth` by `pageHeight`. */
export const figureSized = (width: number, height: number, pageWidth: number, pageHeight: number): boolean =>
  width * height >= pageWidth * pageHeight * MIN_PAGE_SHARE;
/** How long poppler may take over one page's pictures. */
const TIMEOUT_MS = 30_000;
/** The resolution a figure is rendered at from its page. */
const FIGURE_DPI = 144;
/** Two places that share this much of the smaller one's area are one figure. */
const SAME_PLACE = 0.5;

/**
 * Where page `page` of a PDF draws pictures large enough to be figures: poppler's `pdftohtml -xml`
 * gives each picture's place on the page. A page poppler cannot read gives none (the text of the
 * page is read all the same).
 */
export async function pictureAreas(
  path: string,
  page: number,
  widthPt: number,
  heightPt: number,
): Promise<FigureArea[]> {
  const folder = await mkdtemp(join(tmpdir(), 'docconv-figures-'));
  try {
    const xml = await pdftohtml(path, page, join(folder, 'p'));
    if (xml === undefined) return [];
    const size = /<page\b[^>]*\bheight="([\d.]+)"[^>]*\bwidth="([\d.]+)"/.exec(xml);
    if (!size) return [];
    const scale = widthPt / Number(size[2]);
    const areas: FigureArea[] = [];
    for (const match of xml.matchAll(/<image\b([^>]*)\/>/g)) {
      const field = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(match[1])?.[1];
      const [top, left, width, height] = ['top', 'left', 'width', 'height'].map((name) => Number(field(name)) * scale);
      if (![top, left, width, height].every(Number.isFinite)) continue;
      if (!figureSized(width, height, widthPt, heightPt)) continue;
      const box: PageBox = [
        Math.max(0, left),
        Math.max(0, top),
        Math.min(widthPt, left + width),
        Math.min(heightPt, top + height),
      ];
      areas.push({ box, photo: /\.jpe?g$/i.test(field('src') ?? '') });
    }
    return areas;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Places that overlap over most of the smaller one joined into one, in reading order (top to
 * bottom, then left to right): a picture and its soft mask, or a photograph and the drawing
 * around it, are one figure.
 */
export function samePlaceJoined(areas: FigureArea[]): FigureArea[] {
  const size = (b: PageBox) => Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
  const shared = (a: PageBox, b: PageBox) =>
    Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const out: FigureArea[] = [];
  for (const area of areas) {
    let joined = area;
    for (let i = out.length - 1; i >= 0; i--) {
      const [a, b] = [joined.box, out[i].box];
      if (shared(a, b) < Math.min(size(a), size(b)) * SAME_PLACE) continue;
      const box: PageBox = [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
      joined = { box, photo: joined.photo || out[i].photo };
      out.splice(i, 1);
      i = out.length;
    }
    out.push(joined);
  }
  return out.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
}

/**
 * A place on a page as the page shows it, as JPEG for a photograph and PNG otherwise: poppler renders it in colour, so a picture comes
 * composited with its soft mask, in RGB whatever its colour space (indexed, CMYK), with whatever is
 * drawn over it, and a vector drawing comes as a picture.
 */
export function renderedArea(path: string, page: number, { box, photo }: FigureArea): Promise<Buffer> {
  const px = (points: number) => String(Math.max(1, Math.round((points * FIGURE_DPI) / 72)));
  const [x0, y0, x1, y1] = box;
  const crop = ['-x', px(x0), '-y', px(y0), '-W', px(x1 - x0), '-H', px(y1 - y0)];
  const format = photo ? ['-jpeg', '-jpegopt', 'quality=90'] : ['-png'];
  return pdftoppm([...format, '-r', String(FIGURE_DPI), ...crop, '-f', String(page), '-l', String(page), path]);
}

/** `pdftohtml -xml` of one page, its pictures written beside `stem`; undefined when poppler fails or is missing. */
function pdftohtml(path: string, page: number, stem: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(
      'pdftohtml',
      ['-xml', '-q', '-nodrm', '-fmt', 'png', '-f', String(page), '-l', String(page), path, stem],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return resolve(undefined);
      readFile(`${stem}.xml`, 'utf8').then(resolve, () => resolve(undefined));
    });
  });
}
