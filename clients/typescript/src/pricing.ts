import type { ConversionFormat } from './jobs';
import type { Job } from './normalize';
import type { components } from './schema';

/** The price table of GET /api/v1/pricing, in points (1 point = 1 milli-USD). */
export type Pricing = components['schemas']['PricingResponse'];

/** `units` × a unit price, rounded up to whole points the way the service charges it (prices have at most three decimals). */
function charge(units: number, unitPrice: number): number {
  return Math.ceil((units * Math.round(unitPrice * 1000)) / 1000);
}

/**
 * The points `convert(client, job, format)` charges for the first conversion of a format:
 * `job.conversion_units` times the format's unit price for XLSX Basic and XLSX Advanced, 0 for
 * DOCX, PPTX and HWPX, and 0 once the job has that format already (`xlsx_basic_converted`,
 * `xlsx_advanced_converted`), since only the first conversion of each format is charged.
 */
export function conversionPrice(
  pricing: Pricing,
  job: Pick<Job, 'conversion_units' | 'xlsx_basic_converted' | 'xlsx_advanced_converted'>,
  format: ConversionFormat,
): number {
  switch (format) {
    case 'docx':
    case 'pptx':
    case 'hwpx':
      return 0;
    case 'xlsx_basic':
      return job.xlsx_basic_converted ? 0 : charge(job.conversion_units, pricing.conversions.xlsx_basic_unit);
    case 'xlsx_advanced':
      return job.xlsx_advanced_converted ? 0 : charge(job.conversion_units, pricing.conversions.xlsx_advanced_unit);
  }
}
