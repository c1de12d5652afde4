import type { Box } from './pptx-deck';

/** Shapes whose tops are this close (a tenth of an inch, in EMU) share a band. */
const EMU_TOLERANCE = 91440;

/**
 * A slide's shapes in reading order: top to bottom, in bands read left to right. A shape joins
 * the band above it when its top is within a tenth of an inch of the band's, or when it stands
 * beside one of the band's shapes (no overlap across, most of the lower one's height shared), as
 * columns do. Within a band, shapes read left to right, a column's shapes top to bottom; shapes
 * without a box come last, in the slide's order.
 */
export function readingOrder<T extends { box?: Box; order: number }>(items: T[]): T[] {
  const placed = items
    .filter((i) => i.box)
    .sort((a, b) => a.box!.y - b.box!.y || a.box!.x - b.box!.x || a.order - b.order);
  const bands: T[][] = [];
  for (const item of placed) {
    const band = bands[bands.length - 1];
    const joins =
      band &&
      (item.box!.y - band[0].box!.y <= EMU_TOLERANCE || band.some((other) => besideEachOther(item.box!, other.box!)));
    if (joins) band.push(item);
    else bands.push([item]);
  }
  const ordered = bands.flatMap((band) =>
    band.sort((a, b) => a.box!.x - b.box!.x || a.box!.y - b.box!.y || a.order - b.order),
  );
  return [...ordered, ...items.filter((i) => !i.box)];
}

/** Two shapes side by side: apart across, and sharing at least half the height of the shorter. */
function besideEachOther(a: Box, b: Box): boolean {
  const across = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const down = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return across <= 0 && down >= 0.5 * Math.min(a.h, b.h);
}
