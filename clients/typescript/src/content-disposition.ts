/**
 * The file name a download's `Content-Disposition` gives: the UTF-8 `filename*` (RFC 6266 / 5987)
 * when there is one, else the plain `filename`; null without either. The service makes the name
 * safe for every operating system; the caller still saves it only inside the folder it chose.
 */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // a malformed escape: fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header) ?? /filename\s*=\s*([^;]+)/i.exec(header);
  const name = plain?.[1].replace(/\\(.)/g, '$1').trim();
  return name ? name : null;
}
