import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req, Res, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiPaymentRequiredResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  getSchemaPath,
  ApiExtraModels,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../auth/access.decorator';
import { Caller, type Principal } from '../auth/principal';
import { contentDisposition } from '../common/content-disposition';
import { idParam } from '../common/id-param';
import {
  ActionDto,
  ConfirmResponse,
  JobListResponse,
  JobResponse,
  ListJobsQuery,
  PreviewResponse,
  RefundResponse,
  RetryResponse,
  TitleDto,
} from './jobs.dto';
import { JobsViewService } from './jobs-view.service';
import { UploadService } from './upload.service';

const JOB_ID = idParam('job_not_found', 'job of yours');
const READ = { credential: 'api_key', scope: 'jobs:read' } as const;
const WRITE = { credential: 'api_key', scope: 'jobs:write' } as const;

@ApiTags('jobs')
@ApiExtraModels(RetryResponse, RefundResponse)
@Controller('jobs')
export class JobsController {
  constructor(
    private readonly uploads: UploadService,
    private readonly jobs: JobsViewService,
  ) {}

  @Post('upload')
  @Access(WRITE)
  @ApiOperation({ summary: 'Upload files and get a binding cost preview. Nothing is charged until confirm.' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['files'],
      properties: {
        files: { type: 'array', items: { type: 'string', format: 'binary' } },
        ocr_model: { type: 'string', enum: ['basic', 'premium'], default: 'premium' },
        ocr_engine: { type: 'string', enum: ['tesseract', 'easyocr', 'rapidocr'] },
        columns: { type: 'string', description: 'Comma-separated names or a JSON array of names.' },
        prompt: { type: 'string', maxLength: 4000 },
        dpi: { type: 'integer', minimum: 72, maximum: 600, default: 300 },
        relative_paths: { type: 'string', description: 'JSON array of relative paths, one per file.' },
        docling_refinement: { type: 'boolean', default: false },
      },
    },
  })
  @ApiCreatedResponse({ type: PreviewResponse })
  @ApiBadRequestResponse({ description: 'No files, an unsupported or unreadable file, or an invalid field.' })
  @ApiPayloadTooLargeResponse({ description: 'Total size or page count over the limit.' })
  upload(@Req() request: Request, @Caller() caller: Principal): Promise<PreviewResponse> {
    return this.uploads.upload(request, caller);
  }

  @Post(':job_id/confirm')
  @HttpCode(200)
  @Access(WRITE)
  @ApiOperation({ summary: 'Confirm a pending job: deduct the quoted points and queue it.' })
  @ApiOkResponse({ type: ConfirmResponse })
  @ApiPaymentRequiredResponse({
    description: 'Insufficient credits; the detail gives the amount needed and the balance.',
  })
  @ApiTooManyRequestsResponse({ description: 'The key’s daily quota would be passed.' })
  @ApiNotFoundResponse()
  confirm(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<ConfirmResponse> {
    return this.jobs.confirm(caller, jobId);
  }

  @Get()
  @Access(READ)
  @ApiOperation({ summary: 'Your jobs, newest first, with cursor pagination.' })
  @ApiOkResponse({ type: JobListResponse })
  list(@Caller() caller: Principal, @Query() query: ListJobsQuery): Promise<JobListResponse> {
    return this.jobs.list(caller, query);
  }

  @Get(':job_id')
  @Access(READ)
  @ApiOperation({ summary: 'The job record.' })
  @ApiOkResponse({ type: JobResponse })
  @ApiNotFoundResponse()
  get(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<JobResponse> {
    return this.jobs.get(caller, jobId);
  }

  @Patch(':job_id/title')
  @Access(WRITE)
  @ApiOperation({ summary: 'Rename the job’s display title, in any state.' })
  @ApiOkResponse({ type: JobResponse })
  rename(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Body() body: TitleDto,
  ): Promise<JobResponse> {
    return this.jobs.rename(caller, jobId, body.title);
  }

  @Post(':job_id/action')
  @HttpCode(200)
  @Access(WRITE)
  @ApiOperation({ summary: 'Retry (up to 3 times, free) or refund a failed job.' })
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(RetryResponse) }, { $ref: getSchemaPath(RefundResponse) }] },
  })
  action(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Body() body: ActionDto,
  ): Promise<RetryResponse | RefundResponse> {
    return this.jobs.action(caller, jobId, body.action);
  }

  @Post(':job_id/cancel')
  @HttpCode(200)
  @Access(WRITE)
  @ApiOperation({ summary: 'Cancel a pending job (nothing was charged) or a queued one (full refund).' })
  @ApiOkResponse({ type: JobResponse })
  cancel(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<JobResponse> {
    return this.jobs.cancel(caller, jobId);
  }

  @Get(':job_id/download')
  @Access(READ)
  @ApiOperation({ summary: 'The Markdown result of a finished job.' })
  @ApiProduces('text/markdown')
  @ApiOkResponse({ description: 'The Markdown, as an attachment named after the job title.' })
  async download(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<StreamableFile> {
    const { body, filename } = await this.jobs.download(caller, jobId);
    response.setHeader('Content-Type', 'text/markdown; charset=utf-8');
    response.setHeader('Content-Disposition', contentDisposition(filename));
    return new StreamableFile(body);
  }
}
