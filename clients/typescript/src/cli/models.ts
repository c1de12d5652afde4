import type { OcrEngine, OcrModel } from '../jobs';
import type { Pricing } from '../pricing';

/** Engines the service runs with the premium model only. */
const PREMIUM_ONLY_ENGINES: readonly OcrEngine[] = ['rapidocr'];

/** The model an upload without --model uses, and the line that says so when it is not the service's default. */
export interface ModelChoice {
  model: OcrModel;
  note?: string;
}

function pages(count: number): string {
  return `${count} free page${count === 1 ? '' : 's'}`;
}

/**
 * The model when --model is not given. Free pages apply to the basic model only, so while the
 * account has some left this month an upload uses basic, and says so; with none left it uses
 * premium, the service's default. An engine that runs with premium only takes premium.
 */
export function defaultModel(freePagesLeft: number, engine: OcrEngine | undefined): ModelChoice {
  if (engine !== undefined && PREMIUM_ONLY_ENGINES.includes(engine)) return { model: 'premium' };
  if (freePagesLeft <= 0) return { model: 'premium' };
  return {
    model: 'basic',
    note: `Using the basic model: ${pages(freePagesLeft)} left this month (--model premium for the premium engines)`,
  };
}

/**
 * Why uploading a refused premium job again with the basic model would cost less, or undefined
 * when it would not: the job must have pages or images (media costs the same with either model),
 * and basic must have free pages left or a lower price.
 */
export function whyBasicCostsLess(
  job: { model: string; pagesAndImages: number },
  pricing: Pick<Pricing, 'basic' | 'premium'>,
  freePagesLeft: number,
): string | undefined {
  if (job.model !== 'premium' || job.pagesAndImages === 0) return undefined;
  if (freePagesLeft > 0) return `${pages(freePagesLeft)} left this month`;
  if (pricing.basic.page < pricing.premium.page)
    return `${pricing.basic.page} points a page instead of ${pricing.premium.page}`;
  if (pricing.basic.image < pricing.premium.image)
    return `${pricing.basic.image} points an image instead of ${pricing.premium.image}`;
  return undefined;
}
