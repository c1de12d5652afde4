import { ImageRun } from 'docx';
import type { InlineRun } from './markdown-tree';
import { fitWithin, pictureOf, type Picture, type RenderImages } from './render-images';

/** The largest size a picture is shown at, in pixels at 96 to the inch: the text width, and most of a page high. */
const MAX_WIDTH_PX = 600;
const MAX_HEIGHT_PX = 760;

/** The pictures the runs link, each loaded once by its link target; null for a target the result has no picture for. */
export async function loadPictures(
  runs: Iterable<InlineRun>,
  images: RenderImages | undefined,
): Promise<Map<string, Picture | null>> {
  const sources = new Set<string>();
  for (const run of runs) if (run.image) sources.add(run.image.src);
  const loaded = await Promise.all([...sources].map(async (src) => [src, await pictureOf(images, src)] as const));
  return new Map(loaded);
}

/** A picture inline in the text, at its own size or scaled down to fit the page, proportions kept. */
export function pictureRun(picture: Picture, alt: string): ImageRun {
  const size = fitWithin(picture, MAX_WIDTH_PX, MAX_HEIGHT_PX);
  return new ImageRun({
    type: picture.type,
    data: picture.bytes,
    transformation: { width: Math.round(size.width), height: Math.round(size.height) },
    altText: { name: alt || 'picture', description: alt, title: alt },
  });
}
