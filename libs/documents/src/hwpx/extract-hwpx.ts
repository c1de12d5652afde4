import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { hancomMarkdown } from '../hancom/markdown';
import { readHwpx } from './read-hwpx';

/** Markdown from an HWPX (OWPML) document: `readHwpx`'s model written by the Markdown writer HWP shares. */
export async function extractHwpx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  return hancomMarkdown(await readHwpx(path, displayName, limits));
}
