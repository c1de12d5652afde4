import { inlineMarkdown, type Inline } from '@docconv/model';
import {
  attribute,
  cleanText,
  isElement,
  numberAttribute,
  textContent,
  type HtmlElement,
  type HtmlNode,
} from './html-dom';

/** The inline side of reading HTML: runs of text in the style in force, code, math. */

/** Formatting in force where text is met, and where in the page it is. */
export interface Style {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  link?: string;
  /** Inside a sectioning element (article, aside, main, nav, section): headers and footers there are the section's own. */
  sectioned?: boolean;
}

/** A code block as read from a `<pre>`. */
export interface CodeBlockRead {
  type: 'code';
  language: string;
  text: string;
}

/** Whether inline content shows nothing (only whitespace and breaks). */
export function isEmpty(content: readonly Inline[]): boolean {
  return inlineMarkdown(content) === '';
}

export function linkOf(style: Style): { link?: string } {
  return style.link === undefined ? {} : { link: style.link };
}

/** Text in the style in force, as a run carrying only the formatting that is on. */
export function text(value: string, style: Style): Inline {
  return {
    kind: 'text',
    text: cleanText(value),
    ...(style.bold ? { bold: true } : {}),
    ...(style.italic ? { italic: true } : {}),
    ...(style.strike ? { strike: true } : {}),
    ...linkOf(style),
  };
}

/** A run without bold (a heading's text: the heading is its emphasis). */
export function unbold(inline: Inline): Inline {
  if (inline.kind !== 'text' || !inline.bold) return inline;
  const rest: Inline = { ...inline };
  delete rest.bold;
  return rest;
}

/** The text of a code run: whitespace runs as one space, trimmed. */
export function codeText(raw: string): string {
  return raw.replace(/[ \t\n\r\f]+/g, ' ').trim();
}

/**
 * A `<pre>` as a code block: its text as written, blank lines at either end and the
 * indentation common to every line removed; the language from a `language-x` or `lang-x` class
 * on the element or the `<code>` inside it.
 */
export function codeBlock(pre: HtmlElement): CodeBlockRead | undefined {
  const lines = textContent(pre)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return undefined;
  const indent = Math.min(...lines.filter((l) => l !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0));
  const code = pre.childNodes.find((n): n is HtmlElement => isElement(n) && n.tagName === 'code');
  const classes = `${attribute(pre, 'class') ?? ''} ${code ? (attribute(code, 'class') ?? '') : ''}`;
  const language = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
  return { type: 'code', language, text: lines.map((l) => l.slice(indent)).join('\n') };
}

/** MathML as inline TeX when it carries its TeX (an annotation or `alttext`), else its text. */
export function mathInline(math: HtmlElement, style: Style): Inline {
  const stack: HtmlNode[] = [...math.childNodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node)) continue;
    if (node.tagName === 'annotation' && /tex/i.test(attribute(node, 'encoding') ?? '')) {
      const tex = textContent(node).trim();
      if (tex !== '') return { kind: 'math', tex };
    }
    stack.push(...node.childNodes);
  }
  const alt = attribute(math, 'alttext')?.trim();
  if (alt) return { kind: 'math', tex: alt };
  return text(textContent(math), style);
}

/**
 * A picture: at its web address (`src`, resolved) when it has one a reader can open (see
 * `picturesInText` for pictures in a line of text), else its alternative text; a tracking pixel
 * (1 pixel wide or high) is nothing.
 */
export function picture(image: HtmlElement, style: Style, src: string | undefined): Inline[] {
  if ((numberAttribute(image, 'width') ?? 2) <= 1 || (numberAttribute(image, 'height') ?? 2) <= 1) return [];
  const alt = cleanText(attribute(image, 'alt') ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  if (src !== undefined && /^https?:/i.test(src)) return [{ kind: 'image', src, alt, ...linkOf(style) }];
  return alt === '' ? [] : [text(` ${alt} `, style)];
}

/**
 * Content with its pictures settled: pictures standing alone (all a paragraph, cell or item
 * shows: a figure, a thumbnail, a logo) stay pictures; in a line of text each is its alternative
 * text, as it reads there (a formula, an emoji, an icon).
 */
export function picturesInText(content: Inline[]): Inline[] {
  if (!content.some((inline) => inline.kind === 'image')) return content;
  const hasText = content.some(
    (inline) =>
      (inline.kind === 'text' && inline.text.trim() !== '') || inline.kind === 'math' || inline.kind === 'note',
  );
  if (!hasText) return content;
  return content.flatMap((inline) => {
    if (inline.kind !== 'image') return [inline];
    return inline.alt === '' ? [] : [text(` ${inline.alt} `, { link: inline.link })];
  });
}
