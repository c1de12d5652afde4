import type { Document } from '@docconv/model';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { hancomDocument } from '../hancom/hancom-document';
import { readHwpx } from './read-hwpx';

/** The document model of an HWPX (OWPML) document: `readHwpx`'s Hancom model built into blocks as HWP shares. */
export async function extractHwpx(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Document> {
  return hancomDocument(await readHwpx(path, displayName, limits), displayName);
}
