import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { Public } from '../auth/access.decorator';

export interface PricingResponse {
  currency: 'milli-USD';
  free_pages_per_month: number;
  basic: { page: number; image: number };
  premium: { page: number; image: number };
  audio_second: number;
  video_second: number;
  docling_refinement_page: number;
  markdown_file: number;
  conversions: { xlsx_basic_unit: number; xlsx_advanced_unit: number; docx: number; pptx: number };
  notes: string[];
}

@ApiTags('pricing')
@Controller('pricing')
export class PricingController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'The price table in points (1 point = 1 milli-USD).' })
  @ApiOkResponse({ description: 'Prices per unit.' })
  pricing(): PricingResponse {
    const p = this.config.pricing.prices;
    return {
      currency: 'milli-USD',
      free_pages_per_month: this.config.pricing.freePagesPerMonth,
      basic: { page: Number(p.pageBasic), image: Number(p.imageBasic) },
      premium: { page: Number(p.pagePremium), image: Number(p.imagePremium) },
      audio_second: Number(p.audioSecond),
      video_second: Number(p.videoSecond),
      docling_refinement_page: Number(p.refinementPage),
      markdown_file: 0,
      conversions: {
        xlsx_basic_unit: Number(p.xlsxBasicUnit),
        xlsx_advanced_unit: Number(p.xlsxAdvancedUnit),
        docx: 0,
        pptx: 0,
      },
      notes: [
        'Free pages apply to the basic model only, per user and UTC calendar month.',
        'Audio and video are priced per second, rounded up per file.',
        'A conversion unit is one source page (pages plus images, at least 1); only the first conversion of each format is charged.',
      ],
    };
  }
}
