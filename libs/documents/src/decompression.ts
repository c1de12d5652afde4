import { DomainError } from '@docconv/contracts';

/**
 * How far the compressed parts of an uploaded file may expand: the upload limits
 * `MAX_COMPRESSION_RATIO` and `MAX_UNCOMPRESSED_BYTES`. Every inflate of ours (zip entries of
 * office files, HWPX and archives, HWP streams, gzip) is held to them.
 */
export interface DecompressionLimits {
  /** Largest expanded ÷ compressed size of one part, judged past `RATIO_FLOOR_BYTES`. */
  maxRatio: number;
  /** Largest total that one file's parts may expand to. */
  maxTotalBytes: number;
}

/** The configuration's defaults, for readers that are given no limits. */
export const DEFAULT_DECOMPRESSION_LIMITS: DecompressionLimits = { maxRatio: 200, maxTotalBytes: 1024 * 1024 * 1024 };

/** Ratios are judged only past this size: small runs of repeated bytes compress very well and are harmless. */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

/** Whether `expanded` bytes inflated from `compressed` bytes pass the ratio limit: the one ratio rule. */
export function exceedsRatio(expanded: number, compressed: number, maxRatio: number): boolean {
  return expanded > RATIO_FLOOR_BYTES && expanded > maxRatio * Math.max(1, compressed);
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * One file's decompression allowance. Each part inflated from the file is held to the ratio,
 * to its reader's own ceiling (the most of that part a converter reads) and to what is left
 * of the file's total; going past any of them is a 413 naming the file and the part.
 */
export class DecompressionBudget {
  private expanded = 0;

  constructor(
    readonly displayName: string,
    readonly limits: DecompressionLimits = DEFAULT_DECOMPRESSION_LIMITS,
  ) {}

  /** The most a part of `compressed` bytes may expand to. */
  capFor(compressed: number, ceiling = Number.MAX_SAFE_INTEGER): number {
    const byRatio = Math.max(RATIO_FLOOR_BYTES, this.limits.maxRatio * Math.max(1, compressed));
    return Math.max(0, Math.min(ceiling, byRatio, this.limits.maxTotalBytes - this.expanded));
  }

  /** Records what a part expanded to, once it is read within its cap. */
  charge(expanded: number): void {
    this.expanded += expanded;
  }

  /** The refusal for a part that would pass its cap, saying which limit it passes. */
  refusal(part: string, compressed: number, ceiling = Number.MAX_SAFE_INTEGER): DomainError {
    const byRatio = Math.max(RATIO_FLOOR_BYTES, this.limits.maxRatio * Math.max(1, compressed));
    const left = this.limits.maxTotalBytes - this.expanded;
    let detail: string;
    if (ceiling <= byRatio && ceiling <= left) {
      detail = `${this.displayName}: its part ${part} is larger than ${megabytes(ceiling)} uncompressed, more than one document we convert holds. Split the document into smaller files.`;
    } else if (byRatio <= left) {
      detail = `${this.displayName}: its part ${part} expands more than ${this.limits.maxRatio}:1, which is how decompression bombs look. If it is a real document, save it again from its application and upload that.`;
    } else {
      detail = `${this.displayName} expands to more than ${megabytes(this.limits.maxTotalBytes)} in all. Split it into smaller files.`;
    }
    return new DomainError('payload_too_large', detail);
  }
}
