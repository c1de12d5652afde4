import sharp from 'sharp';
import type { GreyImage } from '../engine';

/**
 * Black text on white as 8-bit grey pixels, one line per entry, rendered by sharp from SVG in a
 * face fontconfig knows (DejaVu Sans by default; NanumGothic for Korean).
 */
export async function textImage(
  lines: string[],
  { width = 1600, font = 'DejaVu Sans', size = 56 }: { width?: number; font?: string; size?: number } = {},
): Promise<GreyImage> {
  const step = Math.round(size * 1.6);
  const rows = lines
    .map((line, i) => `<text x="60" y="${120 + i * step}" font-family="${font}" font-size="${size}">${line}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${160 + lines.length * step}">
    <rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}
