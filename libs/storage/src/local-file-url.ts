import { createHmac, timingSafeEqual } from 'node:crypto';
import { publicUrl } from '@docconv/config';
import { DomainError } from '@docconv/contracts';
import {
  assertDownloadablePath,
  assertDownloadName,
  isDownloadablePath,
  isDownloadName,
  resolveTtlSeconds,
} from './download-link';
import type { SignedUrlOptions } from './storage.port';

/** Where the API serves the local store's files (`FilesController`). */
export const LOCAL_FILES_ROUTE = '/api/v1/files';

/** What the local store needs to make download links. */
export interface LocalFileUrlSigning {
  /** `FILE_URL_SECRET`: keys the HMAC of every link. */
  secret: string;
  /** `SIGNED_URL_TTL_SECONDS`: how long a link lasts, and the longest one this service makes or accepts. */
  defaultTtlSeconds: number;
  /** `PUBLIC_BASE_URL`, which links start with (see `publicUrl`); null makes them path-absolute. */
  publicBaseUrl: string | null;
}

/** A link's query parameters as they arrive: each may be missing, or repeated into an array. */
export interface LocalFileUrlQuery {
  expires?: unknown;
  token?: unknown;
  filename?: unknown;
}

/** A file a valid link grants, and the download name signed into the link, if any. */
export interface GrantedFile {
  path: string;
  filename: string | null;
}

const NEW_LINK = 'Ask for a new download link.';

/** How far the clocks of the process that signs a link and the one that checks it may disagree. */
const CLOCK_SKEW_SECONDS = 30;

/**
 * `/api/v1/files/<path>?expires=<unix seconds>&token=<hex HMAC-SHA256>[&filename=<name>]`.
 * The token signs `<path>\n<expires>`, followed by `\n<filename>` when a download name is
 * given, so neither the file, the expiry nor the name can be changed without the secret.
 */
export function signLocalFileUrl(
  path: string,
  options: SignedUrlOptions,
  signing: LocalFileUrlSigning,
  now: Date = new Date(),
): string {
  assertDownloadablePath(path);
  const filename = options.filename === undefined ? null : assertDownloadName(options.filename);
  const ttl = resolveTtlSeconds(options.ttlSeconds, signing.defaultTtlSeconds);
  if (ttl > signing.defaultTtlSeconds) {
    throw new RangeError(
      `A download link lasts at most SIGNED_URL_TTL_SECONDS (${signing.defaultTtlSeconds} s), not ${ttl}`,
    );
  }
  const expires = Math.floor(now.getTime() / 1000) + ttl;
  const query = new URLSearchParams({
    expires: String(expires),
    token: fileToken(signing.secret, path, expires, filename),
  });
  if (filename !== null) query.set('filename', filename);
  const encodedPath = path.split('/').map(encodeURIComponent).join('/');
  return publicUrl(signing.publicBaseUrl, `${LOCAL_FILES_ROUTE}/${encodedPath}?${query.toString()}`);
}

/**
 * Checks a link made by `signLocalFileUrl` and returns what it grants. Refuses, as
 * `signed_url_invalid`, a path outside `inputs/` and `results/` whatever the token, a
 * missing or altered token, an expired link, and a link whose expiry is further away than the
 * longest lifetime (`defaultTtlSeconds`): however it came to be signed, no link outlives that.
 * Tokens are compared in constant time.
 */
export function verifyLocalFileUrl(
  path: string,
  query: LocalFileUrlQuery,
  signing: Pick<LocalFileUrlSigning, 'secret' | 'defaultTtlSeconds'>,
  now: Date = new Date(),
): GrantedFile {
  if (!isDownloadablePath(path)) {
    throw refusal(`This link does not point at a downloadable file. ${NEW_LINK}`);
  }
  const { expires, token, filename } = query;
  if (typeof expires !== 'string' || typeof token !== 'string') {
    throw refusal(`This download link is incomplete: it needs both expires and token. ${NEW_LINK}`);
  }
  const name = typeof filename === 'string' ? filename : null;
  if (!/^\d{1,12}$/.test(expires) || (filename !== undefined && (name === null || !isDownloadName(name)))) {
    throw refusal(`This download link has been altered. ${NEW_LINK}`);
  }
  if (!sameToken(token, fileToken(signing.secret, path, Number(expires), name))) {
    throw refusal(`This download link has been altered or was not issued by this service. ${NEW_LINK}`);
  }
  const expiresAt = new Date(Number(expires) * 1000);
  if (expiresAt.getTime() <= now.getTime()) {
    throw refusal(`This download link expired at ${expiresAt.toISOString().slice(0, 19)} UTC. ${NEW_LINK}`);
  }
  if (expiresAt.getTime() - now.getTime() > (signing.defaultTtlSeconds + CLOCK_SKEW_SECONDS) * 1000) {
    throw refusal(
      `This download link claims to last longer than the ${signing.defaultTtlSeconds} s links of this service last. ${NEW_LINK}`,
    );
  }
  return { path, filename: name };
}

function fileToken(secret: string, path: string, expires: number, filename: string | null): string {
  const message = filename === null ? `${path}\n${expires}` : `${path}\n${expires}\n${filename}`;
  return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}

/** Constant-time comparison; a token of the wrong shape never matches. */
function sameToken(given: string, expected: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
}

function refusal(message: string): DomainError {
  return new DomainError('signed_url_invalid', message);
}
