import { createHash } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';

/** A picture taken from a document, stored beside its Markdown under `name` (`images/p3-1.png`). */
export interface ExtractedImage {
  name: string;
  mime: 'image/png' | 'image/jpeg';
  /** The bytes, base64 (so that page ranges stored as JSON carry them as they are). */
  data: string;
}

/** Pictures larger than this on either side are scaled down to it. */
const MAX_SIDE = 2048;
/** A picture whose bytes exceed this, even scaled down, is left out. */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/**
 * A file's pictures, named in order and each stored once: the same bytes drawn twice (a logo on
 * every page) keep their first name.
 */
export class ImageCollector {
  readonly images: ExtractedImage[] = [];
  private readonly byHash = new Map<string, string>();

  /** `prefix`: the folder and the file's part of the names (`images/`, `images/f2-`). */
  constructor(private readonly prefix: string) {}

  /**
   * The name `bytes` are stored under (`<prefix><stem>.png|jpg`), or undefined when they are not a
   * picture PNG or JPEG can hold (a vector metafile), or too large.
   */
  async add(stem: string, bytes: Buffer): Promise<string | undefined> {
    const hash = createHash('sha256').update(bytes).digest('hex');
    const known = this.byHash.get(hash);
    if (known) return known;
    const picture = await asPngOrJpeg(bytes);
    if (!picture || picture.data.length > MAX_IMAGE_BYTES) return undefined;
    const name = `${this.prefix}${stem}.${picture.mime === 'image/jpeg' ? 'jpg' : 'png'}`;
    this.byHash.set(hash, name);
    this.images.push({ name, mime: picture.mime, data: picture.data.toString('base64') });
    return name;
  }
}

/** JPEG and PNG kept as they are (scaled down when huge); GIF, TIFF, BMP, WebP and the like as PNG. */
async function asPngOrJpeg(bytes: Buffer): Promise<{ mime: ExtractedImage['mime']; data: Buffer } | undefined> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: 100_000_000 }).metadata();
  } catch {
    return undefined; // not a raster picture sharp reads (EMF, WMF, a damaged file)
  }
  const huge = (meta.width ?? 0) > MAX_SIDE || (meta.height ?? 0) > MAX_SIDE;
  if (!huge && meta.format === 'jpeg') return { mime: 'image/jpeg', data: bytes };
  if (!huge && meta.format === 'png') return { mime: 'image/png', data: bytes };
  const image = sharp(bytes, { limitInputPixels: 100_000_000 }).resize(MAX_SIDE, MAX_SIDE, {
    fit: 'inside',
    withoutEnlargement: true,
  });
  try {
    return meta.format === 'jpeg'
      ? { mime: 'image/jpeg', data: await image.jpeg({ quality: 85 }).toBuffer() }
      : { mime: 'image/png', data: await image.png().toBuffer() };
  } catch {
    return undefined;
  }
}

/** `![alt](name)` with the alternative text on one line and its brackets escaped. */
export function imageMarkdown(alt: string, name: string): string {
  const text = alt
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
    .replace(/[[\]\\]/g, (m) => `\\${m}`);
  return `![${text}](${name})`;
}
