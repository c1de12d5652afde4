import { DomainError } from '@docconv/contracts';
import { access } from 'node:fs/promises';
import { DEFAULT_DECOMPRESSION_LIMITS, type DecompressionLimits } from '../decompression';
import { hancomMarkdown } from '../hancom/markdown';
import { readHwp } from './read-hwp';

const ADVICE = 'Check that it opens in Hangul, or save it again as HWP or HWPX and upload that.';

/**
 * Markdown from an HWP 5 document: `readHwp`'s model written by the Markdown writer HWPX shares,
 * so an HWP file and its HWPX twin come out the same. A file that cannot be read is refused with
 * what to do next; one that would expand past the limits keeps its 413.
 */
export async function extractHwp(
  path: string,
  displayName: string,
  limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
): Promise<string> {
  try {
    await access(path);
  } catch {
    throw new DomainError(
      'file_processing_failed',
      `${displayName} could not be read as an HWP document: the stored file could not be opened. Upload it again.`,
    );
  }
  try {
    return hancomMarkdown(readHwp(path, displayName, limits));
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payload_too_large') throw error;
    if (error instanceof DomainError) throw new DomainError('file_processing_failed', error.message);
    throw new DomainError('file_processing_failed', `${displayName} could not be read as an HWP document. ${ADVICE}`);
  }
}
