import { DEFAULT_PRICES } from '@docconv/config';
import { conversionPoints, formatUsd, quote, type Measured } from './pricing';

const none: Measured = { pages: 0, images: 0, audioSeconds: [], videoSeconds: [] };

describe('pricing', () => {
  it('formats USD with two to three decimals', () => {
    expect(formatUsd(10_000)).toBe('$10.00');
    expect(formatUsd(1_234)).toBe('$1.234');
    expect(formatUsd(5)).toBe('$0.005');
    expect(formatUsd(120)).toBe('$0.12');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1_230)).toBe('$1.23');
  });

  it('prices pages and images by model, with free pages for basic only', () => {
    const measured = { ...none, pages: 12, images: 3 };
    expect(quote({ measured, model: 'premium', refinement: false, freePagesLeft: 100 }, DEFAULT_PRICES)).toMatchObject({
      points: 12 * 30 + 3 * 30,
      free_pages_used: 0,
      usd: '$0.45',
    });
    expect(quote({ measured, model: 'basic', refinement: false, freePagesLeft: 5 }, DEFAULT_PRICES)).toMatchObject({
      points: 7 * 10 + 3 * 10,
      free_pages_used: 5,
    });
    expect(quote({ measured, model: 'basic', refinement: false, freePagesLeft: 100 }, DEFAULT_PRICES)).toMatchObject({
      points: 30,
      free_pages_used: 12,
    });
  });

  it('rounds media up per file and keeps audio and video apart', () => {
    const measured = { ...none, audioSeconds: [15, 10, 1], videoSeconds: [7] };
    const q = quote({ measured, model: 'basic', refinement: false, freePagesLeft: 0 }, DEFAULT_PRICES);
    // audio: ceil(1.5) + ceil(1.0) + ceil(0.1) = 2 + 1 + 1; video: ceil(1.4) = 2
    expect(q).toMatchObject({ audio_seconds: 26, video_seconds: 7, points: 6 });
  });

  it('adds refinement at 3 per page, free pages notwithstanding', () => {
    const q = quote(
      { measured: { ...none, pages: 4 }, model: 'basic', refinement: true, freePagesLeft: 100 },
      DEFAULT_PRICES,
    );
    expect(q).toMatchObject({ points: 12, free_pages_used: 4, refinementPages: 4 });
  });

  it('keeps fractional prices exact and rounds up once', () => {
    const prices = { ...DEFAULT_PRICES, pagePremium: '12.125' };
    expect(
      quote({ measured: { ...none, pages: 8 }, model: 'premium', refinement: false, freePagesLeft: 0 }, prices).points,
    ).toBe(97);
    expect(
      quote({ measured: { ...none, pages: 3 }, model: 'premium', refinement: false, freePagesLeft: 0 }, prices).points,
    ).toBe(37);
    expect(conversionPoints(12, '1')).toBe(12);
    expect(conversionPoints(3, '0.5')).toBe(2);
  });

  it('a Markdown-only upload costs nothing', () => {
    expect(
      quote({ measured: none, model: 'premium', refinement: false, freePagesLeft: 0 }, DEFAULT_PRICES).points,
    ).toBe(0);
  });
});
