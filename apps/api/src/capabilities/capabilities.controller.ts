import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@docconv/config';
import { acceptedFormats, ARCHIVE_EXTENSIONS } from '@docconv/documents';
import { CONVERSION_FORMATS, outputFormats } from '@docconv/jobs';
import { Public } from '../auth/access.decorator';
import { wireTime } from '../common/wire';
import { CapabilitiesService } from './capabilities.service';

class SpeechModel {
  @ApiProperty({ example: 'faster-whisper-base' }) name!: string;
  @ApiProperty({ description: 'SHA-256 of the weights file' }) sha256!: string;
  @ApiProperty({
    description:
      "true when the weights are byte for byte a published model (whisper.cpp's ggml files, Systran's CTranslate2 conversions)",
  })
  official!: boolean;
  @ApiProperty() size_bytes!: number;
  @ApiProperty({ description: 'The engine that runs the model, with its version', example: 'faster-whisper 1.2.1' })
  engine!: string;
  @ApiProperty({ description: 'ISO 639-1 codes of the languages the model transcribes', example: ['en', 'ko'] })
  languages!: string[];
}

class Transcription {
  @ApiProperty() available!: boolean;
  @ApiPropertyOptional({ type: SpeechModel, nullable: true }) model!: SpeechModel | null;
}

class EngineState {
  @ApiProperty({ example: 'easyocr' }) name!: string;
  @ApiProperty({ enum: ['starting', 'ready', 'failed', 'stopped'] }) status!: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '1.7.2' }) version!: string | null;
  @ApiProperty({ description: 'ISO 639-1 codes of the languages its weights cover', example: ['en'] })
  languages!: string[];
  @ApiProperty({ description: 'The weight files or model it loaded', example: ['craft_mlt_25k.pth', 'english_g2.pth'] })
  weights!: string[];
  @ApiProperty({ description: 'Processes started again after one ended' }) restarts!: number;
  @ApiPropertyOptional({ description: 'Why it is not running, when it failed' }) detail?: string;
}

class Refinement {
  @ApiProperty() available!: boolean;
  @ApiPropertyOptional({ type: String, nullable: true }) model!: string | null;
}

class Limits {
  @ApiProperty() max_upload_bytes!: number;
  @ApiProperty() max_pages_per_upload!: number;
  @ApiProperty() max_files_per_upload!: number;
  @ApiProperty() max_uncompressed_bytes!: number;
  @ApiProperty() dpi_min!: number;
  @ApiProperty() dpi_max!: number;
  @ApiProperty() max_job_runtime_seconds!: number;
}

class InputFormat {
  @ApiProperty({ example: 'odt', description: 'The format as the job file listing names it' }) format!: string;
  @ApiProperty({ example: 'ODT' }) label!: string;
  @ApiProperty({ example: ['.odt'], description: 'File name endings, the usual one first' }) extensions!: string[];
  @ApiProperty({ example: 'docx', description: "The contract's file_type it counts as" }) file_type!: string;
}

class OutputFormat {
  @ApiProperty({ enum: CONVERSION_FORMATS, example: 'hwpx' }) format!: string;
  @ApiProperty({ example: 'HWPX' }) label!: string;
  @ApiProperty({ example: 'hwpx', description: 'The file name ending of the converted file' }) extension!: string;
  @ApiProperty({
    description: 'Charged per conversion unit on its first conversion (see GET /pricing); otherwise free',
  })
  charged!: boolean;
}

export class CapabilitiesResponse {
  @ApiProperty({
    type: InputFormat,
    isArray: true,
    description:
      'The formats an upload may hold here, decided from content, never from the name alone (audio and video only where transcription is available); archives (ZIP, TAR, TAR.GZ) of them too',
  })
  input_formats!: InputFormat[];
  @ApiProperty({ example: ['.zip', '.tar', '.tgz', '.tar.gz', '.gz'] }) archive_extensions!: string[];
  @ApiProperty({
    type: OutputFormat,
    isArray: true,
    description: 'The formats a finished job converts to with POST /jobs/{job_id}/convert',
  })
  output_formats!: OutputFormat[];
  @ApiProperty({ enum: ['tesseract', 'easyocr', 'rapidocr'], isArray: true }) ocr_engines!: string[];
  @ApiProperty({ description: 'The engine an upload without ocr_engine gets', example: 'tesseract' })
  default_ocr_engine!: string;
  @ApiProperty({ enum: ['basic', 'premium'], isArray: true }) ocr_models!: string[];
  @ApiProperty({ example: ['eng', 'kor'] }) ocr_languages!: string[];
  @ApiProperty({ enum: ['native', 'wasm'] }) tesseract_runtime!: string;
  @ApiProperty({ type: Transcription }) transcription!: Transcription;
  @ApiProperty({ type: Refinement }) refinement!: Refinement;
  @ApiProperty({
    type: EngineState,
    isArray: true,
    description: 'The Python engine processes the workers run (EasyOCR, speech) and their state',
  })
  engines!: EngineState[];
  @ApiProperty({ type: Limits }) limits!: Limits;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'When a worker last reported; null before any has',
  })
  reported_at!: string | null;
  @ApiProperty({ description: 'No worker has reported recently: the answer may be out of date' }) stale!: boolean;
}

@ApiTags('capabilities')
@Controller('capabilities')
export class CapabilitiesController {
  constructor(
    private readonly capabilities: CapabilitiesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'What this deployment can run: OCR engines and models, languages, transcription, refinement, limits.',
  })
  @ApiOkResponse({ type: CapabilitiesResponse })
  async get(): Promise<CapabilitiesResponse> {
    const { report, reportedAt, stale } = await this.capabilities.current();
    const limits = this.config.limits;
    return {
      input_formats: acceptedFormats(report.transcription.available).map((f) => ({
        format: f.kind,
        label: f.label,
        extensions: f.extensions,
        file_type: f.fileType,
      })),
      archive_extensions: ARCHIVE_EXTENSIONS,
      output_formats: outputFormats(),
      ocr_engines: report.ocr_engines,
      default_ocr_engine: report.ocr_engines.includes('easyocr') ? 'easyocr' : report.ocr_engines[0],
      ocr_models: ['basic', 'premium'],
      ocr_languages: report.ocr_languages,
      tesseract_runtime: report.tesseract_runtime,
      transcription: report.transcription,
      refinement: report.refinement,
      engines: report.engines ?? [],
      limits: {
        max_upload_bytes: limits.maxUploadBytes,
        max_pages_per_upload: limits.maxPagesPerUpload,
        max_files_per_upload: limits.maxFilesPerUpload,
        max_uncompressed_bytes: limits.maxUncompressedBytes,
        dpi_min: 72,
        dpi_max: 600,
        max_job_runtime_seconds: this.config.worker.maxRuntimeSeconds,
      },
      reported_at: wireTime(reportedAt),
      stale,
    };
  }
}
