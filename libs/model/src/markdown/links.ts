import { unwrapTrackingLink } from './tracking-links';

/** Addresses a reader can follow from a document: the web, mail, FTP and telephone. */
const FOLLOWABLE = /^(https?:|mailto:|ftp:|tel:)/i;

/**
 * A document's link target as a Markdown link destination, or nothing when it is not an address
 * a reader can follow (`javascript:`, `file:`, a bookmark inside the source document): spaces,
 * parentheses and angle brackets are percent-encoded, so the destination needs no brackets. A
 * search engine's, mail scanner's or social site's redirect is taken off (`unwrapTrackingLink`).
 */
export function linkDestination(target: string): string | undefined {
  const href = unwrapTrackingLink(target.trim());
  if (!FOLLOWABLE.test(href)) return undefined;
  return href.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
