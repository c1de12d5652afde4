/**
 * `attachment` with an ASCII fallback name and, for names outside ASCII, the RFC 5987
 * `filename*` form that browsers and curl use to keep the real name.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const header = `attachment; filename="${ascii}"`;
  if (ascii === filename) return header;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${header}; filename*=UTF-8''${encoded}`;
}

/** The job title with its extension replaced, e.g. `Report.pdf` → `Report.md`. */
export function downloadName(title: string, extension: string): string {
  const base = title.replace(/\.[A-Za-z0-9]{1,8}$/, '').trim() || 'result';
  return `${base}.${extension}`;
}
