import type { Inline } from '@docconv/model';
/**
 * Hancom's equation script (the language of its equation editor: `a over b`, `sqrt {x}`,
 * `sum from {i=1} to n`, `left ( … right )`, `matrix{a & b # c & d}`) as LaTeX math.
 */

const SYMBOLS: Record<string, string> = {
  times: '\\times',
  div: '\\div',
  pm: '\\pm',
  mp: '\\mp',
  cdot: '\\cdot',
  cdots: '\\cdots',
  ldots: '\\ldots',
  vdots: '\\vdots',
  ddots: '\\ddots',
  le: '\\le',
  leq: '\\le',
  ge: '\\ge',
  geq: '\\ge',
  ne: '\\ne',
  neq: '\\ne',
  approx: '\\approx',
  equiv: '\\equiv',
  sim: '\\sim',
  simeq: '\\simeq',
  propto: '\\propto',
  inf: '\\infty',
  infinity: '\\infty',
  partial: '\\partial',
  nabla: '\\nabla',
  therefore: '\\therefore',
  because: '\\because',
  forall: '\\forall',
  exist: '\\exists',
  exists: '\\exists',
  in: '\\in',
  notin: '\\notin',
  subset: '\\subset',
  supset: '\\supset',
  subseteq: '\\subseteq',
  supseteq: '\\supseteq',
  cup: '\\cup',
  cap: '\\cap',
  emptyset: '\\emptyset',
  angle: '\\angle',
  perp: '\\perp',
  deg: '^{\\circ}',
  prime: "'",
  rightarrow: '\\rightarrow',
  leftarrow: '\\leftarrow',
  leftrightarrow: '\\leftrightarrow',
  larrow: '\\Leftarrow',
  rarrow: '\\Rightarrow',
  lrarrow: '\\Leftrightarrow',
  uparrow: '\\uparrow',
  downarrow: '\\downarrow',
  sin: '\\sin',
  cos: '\\cos',
  tan: '\\tan',
  log: '\\log',
  ln: '\\ln',
  exp: '\\exp',
  max: '\\max',
  min: '\\min',
  det: '\\det',
  mod: '\\bmod',
};

const GREEK = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'zeta',
  'eta',
  'theta',
  'iota',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'xi',
  'pi',
  'rho',
  'sigma',
  'tau',
  'upsilon',
  'phi',
  'chi',
  'psi',
  'omega',
];
/** Capitals LaTeX has commands for; the others are Latin capitals. */
const GREEK_CAPITALS = new Set([
  'gamma',
  'delta',
  'theta',
  'lambda',
  'xi',
  'pi',
  'sigma',
  'upsilon',
  'phi',
  'psi',
  'omega',
]);

const BIG_OPERATORS: Record<string, string> = {
  sum: '\\sum',
  prod: '\\prod',
  int: '\\int',
  dint: '\\iint',
  tint: '\\iiint',
  oint: '\\oint',
  lim: '\\lim',
  union: '\\bigcup',
  inter: '\\bigcap',
};

const ENVIRONMENTS: Record<string, string> = {
  matrix: 'matrix',
  pmatrix: 'pmatrix',
  bmatrix: 'bmatrix',
  dmatrix: 'vmatrix',
  cases: 'cases',
  pile: 'matrix',
  lpile: 'matrix',
  rpile: 'matrix',
  eqalign: 'aligned',
};

/** Words that only change the font or spacing: the math reads the same without them. */
const IGNORED = new Set(['rm', 'it', 'bold', 'bf']);

type Token = { kind: 'open' | 'close' | 'word' | 'text' | 'char'; value: string };

class Unconvertible extends Error {}

/**
 * The script as inline content: math in TeX; a script that does not parse is kept as code, so its
 * text is never lost. An empty script gives nothing.
 */
export function equationInline(script: string): Inline | undefined {
  const source = script.replace(/\s+/g, ' ').trim();
  if (source === '') return undefined;
  try {
    const tex = toLatex(source);
    if (tex !== '') return { kind: 'math', tex };
  } catch (error) {
    if (!(error instanceof Unconvertible)) throw error;
  }
  return { kind: 'text', text: source, code: true };
}

/** LaTeX for an equation script; throws `Unconvertible` when its braces do not balance. */
export function toLatex(script: string): string {
  const parser = new Parser(tokenize(script));
  const out = parser.sequence();
  if (!parser.done()) throw new Unconvertible('unbalanced braces');
  return out.replace(/\s+/g, ' ').trim();
}

function tokenize(script: string): Token[] {
  const tokens: Token[] = [];
  for (const match of script.matchAll(/"([^"]*)"|([A-Za-z]+)|(\d+(?:\.\d+)?)|(\{)|(\})|(\S)/g)) {
    const [, quoted, word, number, open, close, other] = match;
    if (quoted !== undefined) tokens.push({ kind: 'text', value: quoted });
    else if (word !== undefined) tokens.push({ kind: 'word', value: word });
    else if (number !== undefined) tokens.push({ kind: 'char', value: number });
    else if (open) tokens.push({ kind: 'open', value: '{' });
    else if (close) tokens.push({ kind: 'close', value: '}' });
    else tokens.push({ kind: 'char', value: other });
  }
  return tokens;
}

class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  done(): boolean {
    return this.at >= this.tokens.length;
  }

  /** Items up to a closing brace or the end; `over` makes a fraction of the items on either side. */
  sequence(): string {
    const items: string[] = [];
    while (!this.done() && this.tokens[this.at].kind !== 'close') {
      const token = this.tokens[this.at];
      if (token.kind === 'word' && token.value.toLowerCase() === 'over') {
        this.at++;
        const numerator = items.pop() ?? '';
        items.push(`\\frac{${isGroup(numerator) ? numerator.slice(1, -1) : numerator}}{${this.argument()}}`);
        continue;
      }
      if (token.kind === 'word' && /^(sup|sub)$/i.test(token.value)) {
        this.at++;
        items.push(`${token.value.toLowerCase() === 'sup' ? '^' : '_'}{${this.argument()}}`);
        continue;
      }
      if (token.kind === 'char' && (token.value === '^' || token.value === '_')) {
        this.at++;
        items.push(`${token.value}{${this.argument()}}`);
        continue;
      }
      items.push(this.item());
    }
    return items.join(' ');
  }

  /** An item as a command's argument: a group without its braces, since the command writes its own. */
  private argument(): string {
    const item = this.item();
    return isGroup(item) ? item.slice(1, -1) : item;
  }

  /** One item: a group, a command with its arguments, a word, or a character. */
  private item(): string {
    const token = this.tokens[this.at++];
    if (token === undefined) return '';
    switch (token.kind) {
      case 'open': {
        const inner = this.sequence();
        if (this.tokens[this.at]?.kind !== 'close') throw new Unconvertible('unclosed brace');
        this.at++;
        return `{${inner}}`;
      }
      case 'close':
        throw new Unconvertible('unopened brace');
      case 'text':
        return `\\text{${token.value.replace(/[{}\\]/g, '')}}`;
      case 'char':
        return char(token.value);
      case 'word':
        return this.word(token.value);
    }
  }

  private word(word: string): string {
    const lower = word.toLowerCase();
    if (IGNORED.has(lower)) return '';
    if (lower === 'sqrt') return `\\sqrt{${this.argument()}}`;
    if (lower === 'root') {
      const degree = this.argument();
      if (this.peekWord('of')) this.at++;
      return `\\sqrt[${degree}]{${this.argument()}}`;
    }
    if (lower === 'left' || lower === 'right') return `\\${lower}${delimiter(this.tokens[this.at++]?.value ?? '.')}`;
    if (lower in BIG_OPERATORS) {
      let out = BIG_OPERATORS[lower];
      if (this.peekWord('from')) {
        this.at++;
        out += `_{${this.argument()}}`;
      }
      if (this.peekWord('to')) {
        this.at++;
        out += `^{${this.argument()}}`;
      }
      return out;
    }
    if (lower in ENVIRONMENTS) {
      if (this.tokens[this.at]?.kind !== 'open') return word;
      const environment = ENVIRONMENTS[lower];
      const body = this.item().slice(1, -1);
      return `\\begin{${environment}}${body.replace(/ ?# ?/g, ' \\\\ ')}\\end{${environment}}`;
    }
    if (lower in SYMBOLS) return SYMBOLS[lower];
    if (GREEK.includes(lower)) {
      if (word === lower) return `\\${lower}`;
      if (word === word.toUpperCase() && GREEK_CAPITALS.has(lower))
        return `\\${lower[0].toUpperCase()}${lower.slice(1)}`;
    }
    return word;
  }

  private peekWord(word: string): boolean {
    const token = this.tokens[this.at];
    return token?.kind === 'word' && token.value.toLowerCase() === word;
  }
}

/** Whether `latex` is one brace group from its first character to its last. */
function isGroup(latex: string): boolean {
  if (!latex.startsWith('{') || !latex.endsWith('}')) return false;
  let depth = 0;
  for (let i = 0; i < latex.length; i++) {
    if (latex[i] === '\\') i++;
    else if (latex[i] === '{') depth++;
    else if (latex[i] === '}' && --depth === 0 && i < latex.length - 1) return false;
  }
  return depth === 0;
}

function char(value: string): string {
  switch (value) {
    case '~':
      return '\\ ';
    case '`':
      return '\\,';
    case '#':
      return '#';
    case '&':
      return '&';
    case '%':
    case '$':
      return `\\${value}`;
    case '\\':
      return '\\backslash';
    default:
      return value;
  }
}

function delimiter(value: string): string {
  if (value === '{' || value === '}') return `\\${value}`;
  return /^[()[\]|.<>/]$/.test(value) ? value : '.';
}
