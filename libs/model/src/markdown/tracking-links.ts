/**
 * Redirect and tracking wrappers of well-known sites: a search engine's result link, a mail
 * scanner's safe link, a social site's outbound link. Each wraps the address a reader means in
 * one of its own; the wrapper is taken off so that the link goes where its text says. Rules as
 * data: the wrapper's host and path, and where it keeps the target.
 */
interface Wrapper {
  host: RegExp;
  path: RegExp;
  /** The wrapped address as the wrapper keeps it, before it is checked to be one. */
  target: (url: URL) => string | null | undefined;
}

const param =
  (...names: string[]) =>
  (url: URL): string | undefined =>
    names.map((name) => url.searchParams.get(name)).find((value) => value !== null && value !== '') ?? undefined;

/** Bing keeps the target in `u` as `a1` and the address in base64url. */
function bingTarget(url: URL): string | undefined {
  const wrapped = url.searchParams.get('u');
  if (wrapped === null || !wrapped.startsWith('a1')) return undefined;
  return Buffer.from(wrapped.slice(2), 'base64url').toString('utf8');
}

/** Yahoo keeps it in the path: `/…/RU=<address, percent-encoded>/RK=…`. */
function yahooTarget(url: URL): string | undefined {
  const wrapped = /\/RU=([^/]+)/.exec(url.pathname)?.[1];
  return wrapped === undefined ? undefined : decodeURIComponent(wrapped);
}

const WRAPPERS: Wrapper[] = [
  { host: /(^|\.)bing\.com$/, path: /^\/ck\/a$/, target: bingTarget },
  { host: /(^|\.)google\.(com|co)(\.[a-z]{2})?$|(^|\.)google\.[a-z]{2}$/, path: /^\/url$/, target: param('q', 'url') },
  { host: /(^|\.)duckduckgo\.com$/, path: /^\/l\/?$/, target: param('uddg') },
  { host: /^r\.search\.yahoo\.com$/, path: /\/RU=/, target: yahooTarget },
  { host: /\.safelinks\.protection\.outlook\.com$/, path: /^\/?$/, target: param('url') },
  { host: /^(l|lm)\.facebook\.com$/, path: /^\/l\.php$/, target: param('u') },
  { host: /^l\.instagram\.com$/, path: /^\/?$/, target: param('u') },
  { host: /(^|\.)youtube\.com$/, path: /^\/redirect$/, target: param('q') },
  { host: /(^|\.)linkedin\.com$/, path: /^\/redir\/redirect\/?$/, target: param('url') },
  { host: /^out\.reddit\.com$/, path: /^\/t3_/, target: param('url') },
  { host: /^slack-redir\.net$/, path: /^\/link$/, target: param('url') },
];

/** Wrappers inside wrappers are taken off up to this many deep. */
const MAX_UNWRAPS = 3;

/**
 * The address a link means: `href` with the wrappers of `WRAPPERS` taken off, when what they
 * wrap is a web address itself; otherwise `href` as it is.
 */
export function unwrapTrackingLink(href: string): string {
  let current = href;
  for (let depth = 0; depth < MAX_UNWRAPS; depth++) {
    const inner = wrappedTarget(current);
    if (inner === undefined) break;
    current = inner;
  }
  return current;
}

function wrappedTarget(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  const wrapper = WRAPPERS.find((candidate) => candidate.host.test(host) && candidate.path.test(url.pathname));
  if (wrapper === undefined) return undefined;
  let target: string | null | undefined;
  try {
    target = wrapper.target(url);
  } catch {
    return undefined;
  }
  if (target === undefined || target === null) return undefined;
  try {
    const inner = new URL(target.trim());
    return inner.protocol === 'http:' || inner.protocol === 'https:' ? inner.href : undefined;
  } catch {
    return undefined;
  }
}
