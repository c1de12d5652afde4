import sharp from 'sharp';

/** The pictures a result's Markdown links, by the link target as written (`images/f1-p2-1.png`). */
export type RenderImages = ReadonlyMap<string, Uint8Array>;

/** A picture ready to embed: its bytes in a format every office reader shows, and its size in pixels. */
export interface Picture {
  bytes: Buffer;
  type: 'png' | 'jpg';
  width: number;
  height: number;
}

/**
 * The picture a link names, as PNG or JPEG with its pixel size; null when the result has no such picture
 * or its bytes are not a picture. Other formats (GIF, BMP, TIFF, WebP) are converted to PNG.
 */
export async function pictureOf(images: RenderImages | undefined, src: string): Promise<Picture | null> {
  const stored = images?.get(src);
  if (!stored) return null;
  try {
    const metadata = await sharp(stored).metadata();
    if (!metadata.width || !metadata.height) return null;
    if (metadata.format === 'png' || metadata.format === 'jpeg') {
      const type = metadata.format === 'png' ? 'png' : 'jpg';
      return { bytes: Buffer.from(stored), type, width: metadata.width, height: metadata.height };
    }
    const png = await sharp(stored).png().toBuffer({ resolveWithObject: true });
    return { bytes: png.data, type: 'png', width: png.info.width, height: png.info.height };
  } catch {
    return null;
  }
}

/** A width and height in any unit that keep the picture's proportions and fit within the bounds. */
export function fitWithin(picture: Pick<Picture, 'width' | 'height'>, maxWidth: number, maxHeight: number) {
  const scale = Math.min(maxWidth / picture.width, maxHeight / picture.height, 1);
  return { width: picture.width * scale, height: picture.height * scale };
}
