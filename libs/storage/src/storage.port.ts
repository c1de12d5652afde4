import type { Readable } from 'node:stream';

/** How a download link is made. */
export interface SignedUrlOptions {
  /** Seconds the link stays valid; the configured `SIGNED_URL_TTL_SECONDS` when unset. */
  ttlSeconds?: number;
  /** Name the browser saves the file under (Content-Disposition: attachment). */
  filename?: string;
}

/**
 * Where inputs and results live. Paths are relative, `/`-separated and confined to
 * `inputs/` and `results/` (see `assertStoragePath`).
 */
export abstract class Storage {
  abstract put(path: string, body: Buffer | Readable): Promise<{ bytes: number }>;
  /** Rejects when there is nothing at `path`. */
  abstract read(path: string): Promise<Buffer>;
  /** Rejects when there is nothing at `path`. */
  abstract stream(path: string): Promise<Readable>;
  abstract exists(path: string): Promise<boolean>;
  /** Removes `prefix` and everything under `prefix/`; nothing there is not an error. */
  abstract deletePrefix(prefix: string): Promise<void>;
  /** Proves the store can be written and read now; throws when it cannot. */
  abstract check(): Promise<void>;
  /**
   * A URL a browser can GET without credentials until it expires. Only `inputs/` and
   * `results/` can be linked to. It does not check that the file exists.
   */
  abstract signedUrl(path: string, options: SignedUrlOptions): Promise<string>;
}

const ALLOWED_ROOTS = ['inputs', 'results', 'health'];

/** Refuses anything but a plain relative path under one of the storage roots. */
export function assertStoragePath(path: string): string {
  const parts = path.split('/');
  const safe =
    path.length > 0 &&
    path.length <= 1024 &&
    !path.includes('\\') &&
    !path.includes('\0') &&
    ALLOWED_ROOTS.includes(parts[0]) &&
    parts.length >= 2 &&
    parts.every((p) => p !== '' && p !== '.' && p !== '..');
  if (!safe) throw new Error(`Refusing storage path outside the storage roots: ${JSON.stringify(path)}`);
  return path;
}
