import DOMPurify from 'dompurify';
import { unzipSync } from 'fflate';
import { marked } from 'marked';

/** Rendering stops here; the download always holds the whole result. */
export const RENDER_LIMIT = 300_000;

/** A result's picture links as its Markdown writes them: `![caption](images/p3-1.png)`. */
const PICTURE_LINK = /!\[([^\]\n]*)\]\((images\/[^)\s]+)\)/g;

/** Whether the Markdown links pictures stored beside it (see resultPictures). */
export const linksPictures = (markdown: string): boolean => new RegExp(PICTURE_LINK.source).test(markdown);

/**
 * The result's Markdown as safe HTML: GFM through marked, then DOMPurify, because a document
 * can carry any HTML (our own results use <table> for merged cells) and must never run script.
 * Picture links relative to the result (`images/p3-1.png`) show the pictures of `pictures`, by
 * link, as `data:` URLs; one not (or not yet) there shows its caption: relative to the console's
 * page the link would lead nowhere.
 */
export function renderMarkdown(markdown: string, pictures?: ReadonlyMap<string, string>): string {
  const linked = markdown.slice(0, RENDER_LIMIT).replace(PICTURE_LINK, (_, alt: string, src: string) => {
    const url = pictures?.get(src);
    return url ? `![${alt}](${url})` : alt;
  });
  const html = marked.parse(linked, { gfm: true, async: false });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

/**
 * The pictures a result's Markdown links, by link (`images/p3-1.png`), as `data:` URLs: taken
 * from the job's zip download, which holds them beside the Markdown.
 */
export function resultPictures(zip: Uint8Array): Map<string, string> {
  const files = unzipSync(zip, { filter: (file) => /^images\/[^/]+\.(png|jpe?g)$/i.test(file.name) });
  const pictures = new Map<string, string>();
  for (const [name, bytes] of Object.entries(files)) {
    const mime = /\.png$/i.test(name) ? 'image/png' : 'image/jpeg';
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    pictures.set(name, `data:${mime};base64,${btoa(binary)}`);
  }
  return pictures;
}
