import { ApiProperty } from '@nestjs/swagger';
import type { PaymentOffer } from '@docconv/billing';
import type { AppConfig } from '@docconv/config';
import { PRINTED_PAGE_CHARACTERS, TEXT_PAGE_CHARACTERS } from '@docconv/documents';

/** What one OCR model charges, in points (milli-USD). */
export class ModelPricesResponse {
  @ApiProperty({ format: 'double', description: 'Per page of a PDF, office or HWP file.', example: 10 }) page!: number;
  @ApiProperty({ format: 'double', description: 'Per image.', example: 10 }) image!: number;
}

/** What conversions of a finished job charge, in points (milli-USD) per conversion unit. */
export class ConversionPricesResponse {
  @ApiProperty({ format: 'double', description: 'XLSX Basic, per conversion unit.', example: 1 })
  xlsx_basic_unit!: number;
  @ApiProperty({ format: 'double', description: 'XLSX Advanced, per conversion unit.', example: 3 })
  xlsx_advanced_unit!: number;
  @ApiProperty({ format: 'double', description: 'DOCX is free.', example: 0 }) docx!: number;
  @ApiProperty({ format: 'double', description: 'PPTX is free.', example: 0 }) pptx!: number;
  @ApiProperty({ format: 'double', description: 'HWPX (Hancom Office) is free.', example: 0 }) hwpx!: number;
}

/** Whether credits can be bought here (POST /payments/checkout), and for what. */
export class PaymentOfferResponse {
  @ApiProperty({
    description:
      'true when this server sells credits through Stripe Checkout; false when payments are not configured ' +
      '(then POST /payments/checkout is 503 and credits come only from the operator).',
  })
  available!: boolean;
  @ApiProperty({ enum: ['stripe'] }) provider!: 'stripe';
  @ApiProperty({ enum: ['USD'] }) currency!: 'USD';
  @ApiProperty({ description: 'The smallest checkout, in whole US dollars.', example: 5 }) min_usd!: number;
  @ApiProperty({ description: 'The largest checkout, in whole US dollars.', example: 500 }) max_usd!: number;
  @ApiProperty({ description: 'Points one US dollar buys.', example: 1000 }) points_per_usd!: number;
}

export class PricingResponse {
  @ApiProperty({ enum: ['milli-USD'], description: 'Every price is in points: 1 point = 1 milli-USD.' })
  currency!: 'milli-USD';
  @ApiProperty({ description: 'Free basic-model pages per user and UTC calendar month.' })
  free_pages_per_month!: number;
  @ApiProperty({ type: ModelPricesResponse }) basic!: ModelPricesResponse;
  @ApiProperty({ type: ModelPricesResponse }) premium!: ModelPricesResponse;
  @ApiProperty({ format: 'double', description: 'Per second of audio, rounded up per file.', example: 0.1 })
  audio_second!: number;
  @ApiProperty({ format: 'double', description: 'Per second of video, rounded up per file.', example: 0.2 })
  video_second!: number;
  @ApiProperty({ format: 'double', description: 'Per page sent to layout refinement.', example: 3 })
  docling_refinement_page!: number;
  @ApiProperty({ format: 'double', description: 'Markdown files are passed through free.', example: 0 })
  markdown_file!: number;
  @ApiProperty({
    description:
      'Readable characters (markup and whitespace runs not counted) that make one priced page of a file without pages: ' +
      'a web page, plain text, an e-mail body or an EPUB book. At least one page per file.',
    example: TEXT_PAGE_CHARACTERS,
  })
  text_page_characters!: number;
  @ApiProperty({
    description:
      'Readable characters that make one priced page of an ODT, DOC, RTF or DOCX file that stores no page count.',
    example: PRINTED_PAGE_CHARACTERS,
  })
  printed_page_characters!: number;
  @ApiProperty({ type: ConversionPricesResponse }) conversions!: ConversionPricesResponse;
  @ApiProperty({ type: [String] }) notes!: string[];
  @ApiProperty({ type: PaymentOfferResponse }) payments!: PaymentOfferResponse;
}

/** The configured prices as the API shows them. */
export function toPricingResponse(pricing: AppConfig['pricing'], offer: PaymentOffer): PricingResponse {
  const p = pricing.prices;
  return {
    currency: 'milli-USD',
    free_pages_per_month: pricing.freePagesPerMonth,
    basic: { page: Number(p.pageBasic), image: Number(p.imageBasic) },
    premium: { page: Number(p.pagePremium), image: Number(p.imagePremium) },
    audio_second: Number(p.audioSecond),
    video_second: Number(p.videoSecond),
    docling_refinement_page: Number(p.refinementPage),
    markdown_file: 0,
    text_page_characters: TEXT_PAGE_CHARACTERS,
    printed_page_characters: PRINTED_PAGE_CHARACTERS,
    conversions: {
      xlsx_basic_unit: Number(p.xlsxBasicUnit),
      xlsx_advanced_unit: Number(p.xlsxAdvancedUnit),
      docx: 0,
      pptx: 0,
      hwpx: 0,
    },
    notes: [
      'Free pages apply to the basic model only, per user and UTC calendar month.',
      'Audio and video are priced per second, rounded up per file.',
      `A web page, plain-text file, e-mail body or EPUB book is priced as a page per ${TEXT_PAGE_CHARACTERS.toLocaleString('en-US')} readable characters, at least one per file: an article of ordinary length is one page.`,
      'A conversion unit is one source page (pages plus images, at least 1); only the first conversion of each format is charged.',
    ],
    payments: {
      available: offer.available,
      provider: offer.provider,
      currency: offer.currency,
      min_usd: offer.minUsd,
      max_usd: offer.maxUsd,
      points_per_usd: offer.pointsPerUsd,
    },
  };
}
