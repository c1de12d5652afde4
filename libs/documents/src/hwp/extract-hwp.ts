import { DomainError } from '@docconv/contracts';
import type { Document } from '@docconv/model';
import { access } from 'node:fs/promises';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { hancomDocument } from '../hancom/hancom-document';
import { readHwp } from './read-hwp';

const ADVICE = 'Check that it opens in Hangul, or save it again as HWP or HWPX and upload that.';

/**
 * The document model of an HWP 5 document: `readHwp`'s Hancom model built into blocks as HWPX
 * shares, so an HWP file and its HWPX twin come out the same. A file that cannot be read is refused with
 * what to do next; one that would expand past the limits keeps its 413.
 */
export async function extractHwp(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<Document> {
  try {
    await access(path);
  } catch {
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read as an HWP document: the stored file could not be opened. Upload it again.`,
    );
  }
  try {
    return hancomDocument(readHwp(path, displayName, limits), displayName);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payload_too_large') throw error;
    if (error instanceof DomainError) throw new DomainError('file_processing_failed', error.message);
    throw new DomainError('file_processing_failed', `${displayName} could not be read as an HWP document. ${ADVICE}`);
  }
}
