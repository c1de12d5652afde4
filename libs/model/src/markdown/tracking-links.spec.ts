import { linkDestination } from './links';
import { unwrapTrackingLink } from './tracking-links';

const b64 = (address: string) => `a1${Buffer.from(address).toString('base64url')}`;

describe('unwrapTrackingLink', () => {
  it.each([
    [
      'Bing',
      `https://www.bing.com/ck/a?!&&p=4f1c&ptn=3&u=${b64('https://example.org/page?id=7')}&ntb=1`,
      'https://example.org/page?id=7',
    ],
    [
      'Google',
      'https://www.google.com/url?sa=t&q=https%3A%2F%2Fexample.org%2Fa%3Fb%3Dc&usg=x',
      'https://example.org/a?b=c',
    ],
    [
      'Google, a country',
      'https://www.google.co.kr/url?url=https://example.kr/%EA%B0%80',
      'https://example.kr/%EA%B0%80',
    ],
    ['DuckDuckGo', 'https://duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.org%2F&rut=abc', 'https://example.org/'],
    [
      'Yahoo',
      'https://r.search.yahoo.com/_ylt=A/RV=2/RE=1/RO=10/RU=https%3a%2f%2fexample.org%2fnews/RK=2/RS=x-',
      'https://example.org/news',
    ],
    [
      'Outlook safe links',
      'https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2Finvoice&data=05',
      'https://example.com/invoice',
    ],
    ['Facebook', 'https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.org%2F&h=AT0', 'https://example.org/'],
    [
      'YouTube',
      'https://www.youtube.com/redirect?event=video&q=https%3A%2F%2Fexample.org%2Fslides',
      'https://example.org/slides',
    ],
    [
      'a wrapper inside a wrapper',
      `https://www.bing.com/ck/a?u=${b64('https://www.google.com/url?q=https://example.org/x')}`,
      'https://example.org/x',
    ],
  ])('takes off %s', (_site, wrapped, target) => {
    expect(unwrapTrackingLink(wrapped)).toBe(target);
  });

  it.each([
    ['an ordinary link', 'https://example.org/ck/a?u=a1aHR0cHM6Ly9ldmlsLmV4YW1wbGU'],
    ['a Google search, not a redirect', 'https://www.google.com/search?q=https://example.org'],
    ['a wrapper around something that is no web address', 'https://www.google.com/url?q=javascript:alert(1)'],
    ['a wrapper with nothing in it', 'https://www.bing.com/ck/a?p=1'],
    ['no address at all', 'mailto:someone@example.org'],
  ])('leaves %s as it is', (_what, href) => {
    expect(unwrapTrackingLink(href)).toBe(href);
  });

  it('is what every reader writes: linkDestination unwraps', () => {
    expect(linkDestination(`https://www.bing.com/ck/a?u=${b64('https://example.org/a b')}`)).toBe(
      'https://example.org/a%20b',
    );
  });
});
