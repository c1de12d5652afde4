import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A picture placed on a page: its box in points from the page's top-left corner, and its bytes as embedded. */
export interface PagePicture {
  box: [number, number, number, number];
  bytes: Buffer;
}

/** A picture smaller than this share of the page is an ornament (a logo, an icon), not a figure. */
const MIN_PAGE_SHARE = 0.03;
/** How long poppler may take over one page's pictures. */
const TIMEOUT_MS = 30_000;

/**
 * The pictures drawn on page `page` of a PDF, large enough to be figures, with where they are
 * drawn: poppler's `pdftohtml -xml` writes each picture as embedded and its place on the page.
 * A page poppler cannot read gives none (the text of the page is read all the same).
 */
export async function pagePictures(
  path: string,
  page: number,
  widthPt: number,
  heightPt: number,
): Promise<PagePicture[]> {
  const folder = await mkdtemp(join(tmpdir(), 'docconv-figures-'));
  try {
    const xml = await pdftohtml(path, page, join(folder, 'p'));
    if (xml === undefined) return [];
    const size = /<page\b[^>]*\bheight="([\d.]+)"[^>]*\bwidth="([\d.]+)"/.exec(xml);
    if (!size) return [];
    const scale = widthPt / Number(size[2]);
    const pictures: PagePicture[] = [];
    for (const match of xml.matchAll(/<image\b([^>]*)\/>/g)) {
      const field = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(match[1])?.[1];
      const [top, left, width, height] = ['top', 'left', 'width', 'height'].map((name) => Number(field(name)) * scale);
      const src = field('src');
      if (!src || ![top, left, width, height].every(Number.isFinite)) continue;
      if (width * height < widthPt * heightPt * MIN_PAGE_SHARE) continue;
      const box: PagePicture['box'] = [
        Math.max(0, left),
        Math.max(0, top),
        Math.min(widthPt, left + width),
        Math.min(heightPt, top + height),
      ];
      const file = join(folder, src.split('/').pop()!);
      const bytes = await readFile(file).catch(() => undefined);
      if (bytes) pictures.push({ box, bytes });
    }
    return pictures.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
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
