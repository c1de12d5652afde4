import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Rendering stops here; the download always holds the whole result. */
export const RENDER_LIMIT = 300_000;

/**
 * The result's Markdown as safe HTML: GFM through marked, then DOMPurify, because a document
 * can carry any HTML (our own results use <table> for merged cells) and must never run script.
 */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown.slice(0, RENDER_LIMIT), { gfm: true, async: false });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
