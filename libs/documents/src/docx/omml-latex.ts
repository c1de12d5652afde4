import { ACCENTS, DELIMITERS, FUNCTIONS, INVISIBLE, NARY, SYMBOLS } from './omml-symbols';
import { attr, child, elements, isElement, textOf, type XmlElement } from './xml-tree';

interface Context {
  /** Inside an equation array or matrix, where `&` marks an alignment point. */
  aligned: boolean;
}

/** LaTeX for an `m:oMath` (or the equations of an `m:oMathPara`). */
export function ommlToLatex(math: XmlElement): string {
  return tidy(convertChildren(math, { aligned: false }));
}

function convertChildren(parent: XmlElement | undefined, ctx: Context): string {
  if (!parent) return '';
  let out = '';
  let text = '';
  let plain = false;
  const flush = (): void => {
    if (text !== '') out = join(out, plain ? `\\text{${escapeText(text)}}` : textToLatex(text, ctx));
    text = '';
  };
  for (const node of parent.children) {
    if (!isElement(node)) continue;
    if (node.name === 'm:r' || node.name === 'w:r') {
      const runText = runTextOf(node);
      const normal = mOnOff(child(node, 'm:rPr'), 'm:nor') === true;
      if (text !== '' && normal !== plain) flush();
      plain = normal;
      text += runText;
      continue;
    }
    flush();
    out = join(out, convert(node, ctx));
  }
  flush();
  return out;
}

function runTextOf(run: XmlElement): string {
  let text = '';
  for (const node of run.children) {
    if (!isElement(node)) continue;
    if (node.name === 'm:t' || node.name === 'w:t') text += textOf(node);
    else if (node.name === 'w:tab') text += ' ';
  }
  return text.replace(INVISIBLE, '');
}

function convert(el: XmlElement, ctx: Context): string {
  switch (el.name) {
    case 'm:f':
      return fraction(el, ctx);
    case 'm:sSup':
      return `${base(el, ctx)}^{${convertChildren(child(el, 'm:sup'), ctx)}}`;
    case 'm:sSub':
      return `${base(el, ctx)}_{${convertChildren(child(el, 'm:sub'), ctx)}}`;
    case 'm:sSubSup':
      return `${base(el, ctx)}${scripts(el, ctx)}`;
    case 'm:sPre':
      return `{}${scripts(el, ctx)}${base(el, ctx)}`;
    case 'm:rad':
      return radical(el, ctx);
    case 'm:d':
      return delimited(el, ctx);
    case 'm:nary':
      return nary(el, ctx);
    case 'm:func':
      return func(el, ctx);
    case 'm:limLow':
      return limit(el, ctx, 'low');
    case 'm:limUpp':
      return limit(el, ctx, 'upp');
    case 'm:groupChr':
      return groupChr(el, ctx);
    case 'm:acc':
      return `${ACCENTS[mval(child(el, 'm:accPr'), 'm:chr') ?? '\u0302'] ?? '\\hat'}{${convertChildren(child(el, 'm:e'), ctx)}}`;
    case 'm:bar':
      return mval(child(el, 'm:barPr'), 'm:pos') === 'top'
        ? `\\overline{${convertChildren(child(el, 'm:e'), ctx)}}`
        : `\\underline{${convertChildren(child(el, 'm:e'), ctx)}}`;
    case 'm:borderBox':
      return `\\boxed{${convertChildren(child(el, 'm:e'), ctx)}}`;
    case 'm:eqArr':
      return equationArray(el, ctx);
    case 'm:m':
      return matrix(el);
    case 'm:phant':
      return mOnOff(child(el, 'm:phantPr'), 'm:show') === false
        ? `\\phantom{${convertChildren(child(el, 'm:e'), ctx)}}`
        : convertChildren(child(el, 'm:e'), ctx);
    default:
      // Property elements (m:rPr, m:ctrlPr, …) carry no content; containers are read through.
      return el.name.endsWith('Pr') ? '' : convertChildren(el, ctx);
  }
}

/** `_{sub}^{sup}`, leaving out an empty part. */
function scripts(el: XmlElement, ctx: Context): string {
  const sub = convertChildren(child(el, 'm:sub'), ctx);
  const sup = convertChildren(child(el, 'm:sup'), ctx);
  return `${sub === '' ? '' : `_{${sub}}`}${sup === '' ? '' : `^{${sup}}`}`;
}

function base(el: XmlElement, ctx: Context): string {
  return group(convertChildren(child(el, 'm:e'), ctx));
}

/** Braces around a sub- or superscript base unless it is one symbol. */
function group(latex: string): string {
  return /^([A-Za-z0-9]|\\[A-Za-z]+)$/.test(latex) ? latex : `{${latex}}`;
}

function fraction(el: XmlElement, ctx: Context): string {
  const num = convertChildren(child(el, 'm:num'), ctx);
  const den = convertChildren(child(el, 'm:den'), ctx);
  switch (mval(child(el, 'm:fPr'), 'm:type')) {
    case 'noBar':
      return `\\genfrac{}{}{0pt}{}{${num}}{${den}}`;
    case 'lin':
    case 'skw':
      return `{${num}}/{${den}}`;
    default:
      return `\\frac{${num}}{${den}}`;
  }
}

function radical(el: XmlElement, ctx: Context): string {
  const radicand = convertChildren(child(el, 'm:e'), ctx);
  const degree = convertChildren(child(el, 'm:deg'), ctx);
  const hidden = mOnOff(child(el, 'm:radPr'), 'm:degHide') === true;
  return hidden || degree === '' ? `\\sqrt{${radicand}}` : `\\sqrt[${degree}]{${radicand}}`;
}

function delimited(el: XmlElement, ctx: Context): string {
  const pr = child(el, 'm:dPr');
  const open = delimiter(chr(pr, 'm:begChr') ?? '(');
  const close = delimiter(chr(pr, 'm:endChr') ?? ')');
  const separator = chr(pr, 'm:sepChr') ?? '|';
  const parts = elements(el, 'm:e').map((e) => convertChildren(e, ctx));
  return `\\left${open}${parts.join(separator === '|' ? ' \\mid ' : ` ${textToLatex(separator, ctx)} `)}\\right${close}`;
}

/** `m:val` of the named child. */
function mval(parent: XmlElement | undefined, name: string): string | undefined {
  return attr(child(parent, name), 'm:val');
}

/** An on/off math property (`<m:degHide m:val="1"/>`): undefined when absent. */
function mOnOff(parent: XmlElement | undefined, name: string): boolean | undefined {
  const element = child(parent, name);
  if (!element) return undefined;
  const value = attr(element, 'm:val');
  return value === undefined || !['0', 'false', 'off'].includes(value.toLowerCase());
}

/** A character property (`m:chr`, `m:begChr`, …): its `m:val`, '' when the value is empty, undefined when absent. */
function chr(pr: XmlElement | undefined, name: string): string | undefined {
  const element = child(pr, name);
  if (!element) return undefined;
  return attr(element, 'm:val') ?? '';
}

function delimiter(ch: string): string {
  return DELIMITERS[ch] ?? SYMBOLS[ch] ?? ch;
}

function nary(el: XmlElement, ctx: Context): string {
  const pr = child(el, 'm:naryPr');
  const symbol = chr(pr, 'm:chr') ?? '∫';
  const op = NARY[symbol] ?? SYMBOLS[symbol] ?? symbol;
  const sub = mOnOff(pr, 'm:subHide') === true ? '' : convertChildren(child(el, 'm:sub'), ctx);
  const sup = mOnOff(pr, 'm:supHide') === true ? '' : convertChildren(child(el, 'm:sup'), ctx);
  const limits = `${sub === '' ? '' : `_{${sub}}`}${sup === '' ? '' : `^{${sup}}`}`;
  return `${op}${limits} ${convertChildren(child(el, 'm:e'), ctx)}`;
}

function func(el: XmlElement, ctx: Context): string {
  const name = child(el, 'm:fName');
  const argument = convertChildren(child(el, 'm:e'), ctx);
  const only = name ? name.children.filter(isElement).filter((c) => !c.name.endsWith('Pr')) : [];
  let head: string;
  if (only.length === 1 && (only[0].name === 'm:limLow' || only[0].name === 'm:limUpp')) {
    head = limit(only[0], ctx, only[0].name === 'm:limLow' ? 'low' : 'upp');
  } else {
    const text = plainText(name);
    head = /^[A-Za-z]+$/.test(text) ? operatorName(text) : convertChildren(name, ctx);
  }
  return /^(\\left|\(|\[)/.test(argument) ? `${head}${argument}` : `${head}{${argument}}`;
}

function operatorName(name: string): string {
  return FUNCTIONS.has(name) ? `\\${name}` : `\\operatorname{${name}}`;
}

function limit(el: XmlElement, ctx: Context, where: 'low' | 'upp'): string {
  const body = child(el, 'm:e');
  const lim = convertChildren(child(el, 'm:lim'), ctx);
  const inner = body ? body.children.filter(isElement).filter((c) => !c.name.endsWith('Pr')) : [];
  const text = plainText(body);
  if (inner.every((c) => c.name === 'm:r') && /^[A-Za-z]{2,}$/.test(text)) {
    return `${operatorName(text)}${where === 'low' ? '_' : '^'}{${lim}}`;
  }
  if (inner.length === 1 && inner[0].name === 'm:groupChr') {
    const content = convertChildren(child(inner[0], 'm:e'), ctx);
    const brace = groupBrace(inner[0]);
    if (brace === '\\underbrace' && where === 'low') return `\\underbrace{${content}}_{${lim}}`;
    if (brace === '\\overbrace' && where === 'upp') return `\\overbrace{${content}}^{${lim}}`;
  }
  const latex = convertChildren(body, ctx);
  return where === 'low' ? `\\underset{${lim}}{${latex}}` : `\\overset{${lim}}{${latex}}`;
}

function groupBrace(el: XmlElement): string | undefined {
  const pr = child(el, 'm:groupChrPr');
  const symbol = chr(pr, 'm:chr') ?? '\u23df';
  if (symbol === '\u23df') return '\\underbrace';
  if (symbol === '\u23de') return '\\overbrace';
  return undefined;
}

function groupChr(el: XmlElement, ctx: Context): string {
  const content = convertChildren(child(el, 'm:e'), ctx);
  const brace = groupBrace(el);
  if (brace) return `${brace}{${content}}`;
  const pr = child(el, 'm:groupChrPr');
  const symbol = textToLatex(chr(pr, 'm:chr') ?? '', ctx);
  return mval(pr, 'm:pos') === 'top' ? `\\overset{${symbol}}{${content}}` : `\\underset{${symbol}}{${content}}`;
}

function equationArray(el: XmlElement, ctx: Context): string {
  const rows = elements(el, 'm:e').map((e) => convertChildren(e, { aligned: true }));
  if (rows.length === 1) return convertChildren(elements(el, 'm:e')[0], ctx);
  return `\\begin{aligned}${rows.join(' \\\\ ')}\\end{aligned}`;
}

function matrix(el: XmlElement): string {
  const rows = elements(el, 'm:mr').map((row) =>
    elements(row, 'm:e')
      .map((e) => convertChildren(e, { aligned: true }))
      .join(' & '),
  );
  return `\\begin{matrix}${rows.join(' \\\\ ')}\\end{matrix}`;
}

/** The text of the runs directly inside an element. */
function plainText(el: XmlElement | undefined): string {
  if (!el) return '';
  return elements(el)
    .filter((c) => c.name === 'm:r' || c.name === 'w:r')
    .map(runTextOf)
    .join('')
    .trim();
}

/**
 * Math text: symbols become commands, LaTeX specials are escaped, and a space between two
 * words is kept as an explicit space (LaTeX drops ordinary spaces in math).
 */
function textToLatex(text: string, ctx: Context): string {
  let out = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (/\s/.test(ch)) {
      const before = chars
        .slice(0, i)
        .reverse()
        .find((c) => !/\s/.test(c));
      const after = chars.slice(i + 1).find((c) => !/\s/.test(c));
      if (before && after && /\p{L}/u.test(before) && /\p{L}/u.test(after)) {
        if (!out.endsWith('\\ ')) out += '\\ ';
      } else if (!out.endsWith(' ')) {
        out += ' ';
      }
      continue;
    }
    if (ch === '&' && ctx.aligned) {
      out += '&';
      continue;
    }
    if (ch === '&') {
      out += '\\&';
      continue;
    }
    const symbol = SYMBOLS[ch];
    out += symbol === undefined ? ch : /^\\[A-Za-z]+$/.test(symbol) ? ` ${symbol} ` : symbol;
  }
  return out;
}

function escapeText(text: string): string {
  return text.replace(/[\\{}#%$&_^~]/g, (c) =>
    c === '\\' ? '\\textbackslash{}' : c === '^' || c === '~' ? `\\${c}{}` : `\\${c}`,
  );
}

/** Concatenation that keeps a command name from running into a following letter. */
function join(left: string, right: string): string {
  if (right === '') return left;
  if (/\\[A-Za-z]+$/.test(left) && /^[A-Za-z]/.test(right)) return `${left} ${right}`;
  return left + right;
}

function tidy(latex: string): string {
  return latex
    .replace(/\s+/g, ' ')
    .replace(/(?<!\\) (?=[{}^_])|(?<=[{}^_]) /g, '')
    .trim();
}
