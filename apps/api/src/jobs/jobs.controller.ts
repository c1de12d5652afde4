import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  Sse,
  StreamableFile,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiAcceptedResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiPaymentRequiredResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  getSchemaPath,
  ApiExtraModels,
  ApiHeader,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CONVERSION_EXTENSIONS, ConversionsService, JobsService } from '@docconv/jobs';
import { TOKENIZER, type ChunkList } from '@docconv/documents';
import { attachmentDisposition, contentTypeOf } from '@docconv/storage';
import { JobStreamService } from './job-stream.service';
import { UPLOAD_FORM } from './upload-options';
import { IDEMPOTENCY_HEADER, Idempotent } from '../idempotency/idempotent.decorator';
import { Access } from '../auth/access.decorator';
import { Caller, callerOf, type AuthenticatedRequest, type Principal } from '../auth/principal';
import { idParam } from '../common/id-param';
import {
  ActionDto,
  ConfirmResponse,
  JobFilesResponse,
  JobListResponse,
  JobResponse,
  ListJobsQuery,
  ConversionResponse,
  ConversionRetryResponse,
  ConvertDto,
  DownloadQuery,
  PreviewQuery,
  PageReportResponse,
  PreviewResponse,
  RefundResponse,
  RetryResponse,
  TitleDto,
  toConversionActionResponse,
  toJobFilesResponse,
  toJobResponse,
} from './jobs.dto';
import { ChunksQuery } from './chunks.dto';
import { JobResultsService } from './job-results.service';
import { UploadService } from './upload.service';

const JOB_ID = idParam('job_not_found', 'job of yours');
const READ = { credential: 'api_key_or_jwt', scope: 'jobs:read' } as const;
const WRITE = { credential: 'api_key_or_jwt', scope: 'jobs:write' } as const;

/** The job id of a path, as the upload answered it. */
const JOB_ID_PARAM = ApiParam({
  name: 'job_id',
  description: 'The `job_id` of the upload’s answer.',
  schema: { type: 'string', format: 'uuid' },
});

/**
 * What GET /jobs/{job_id}/download serves, by `format`: the Markdown, its structured result, or
 * a file to save. The Markdown is declared as bytes (UTF-8), as the attachment it is, so that a
 * generated client saves it rather than parsing it as JSON.
 */
const BINARY = { schema: { type: 'string', format: 'binary' } } as const;
const DOWNLOAD_CONTENT = {
  'text/markdown': BINARY,
  'application/json': { schema: { $ref: '#/components/schemas/StructuredResult' } },
  'application/zip': BINARY,
  ...Object.fromEntries(
    Object.values(CONVERSION_EXTENSIONS).map((extension) => [contentTypeOf(`result.${extension}`), BINARY]),
  ),
};

@ApiTags('jobs')
@ApiExtraModels(RetryResponse, RefundResponse, ConversionRetryResponse)
@Controller('jobs')
export class JobsController {
  constructor(
    private readonly uploads: UploadService,
    private readonly jobs: JobsService,
    private readonly conversions: ConversionsService,
    private readonly results: JobResultsService,
    private readonly stream: JobStreamService,
  ) {}

  @Post('upload')
  @Access(WRITE)
  @IDEMPOTENCY_HEADER
  @ApiOperation({ summary: 'Upload files and get a binding cost preview. Nothing is charged until confirm.' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_FORM })
  @ApiCreatedResponse({ type: PreviewResponse })
  @ApiBadRequestResponse({ description: 'No files, an unsupported or unreadable file, or an invalid field.' })
  @ApiPayloadTooLargeResponse({ description: 'Total size or page count over the limit.' })
  upload(
    @Req() request: AuthenticatedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Caller() caller: Principal,
  ): Promise<PreviewResponse> {
    return this.uploads.upload(request, reply, caller);
  }

  @Post(':job_id/confirm')
  @Idempotent()
  @HttpCode(200)
  @Access(WRITE)
  @JOB_ID_PARAM
  @ApiOperation({ summary: 'Confirm a pending job: deduct the quoted points and queue it.' })
  @ApiOkResponse({ type: ConfirmResponse })
  @ApiBadRequestResponse({
    description: 'The job is not pending: it was confirmed, cancelled or has expired (`invalid_state`).',
  })
  @ApiPaymentRequiredResponse({
    description: 'Insufficient credits; the detail gives the amount needed and the balance.',
  })
  @ApiTooManyRequestsResponse({
    description: 'The API key’s daily quota would be passed (a session token has no daily quota), or the rate limit.',
  })
  @ApiNotFoundResponse()
  async confirm(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<ConfirmResponse> {
    const { job, balance } = await this.jobs.confirm(callerOf(caller), jobId);
    return { job_id: job.id, status: 'queued', remaining_points: balance };
  }

  @Get()
  @Access(READ)
  @ApiOperation({ summary: 'Your jobs, newest first, with cursor pagination.' })
  @ApiOkResponse({ type: JobListResponse })
  async list(@Caller() caller: Principal, @Query() query: ListJobsQuery): Promise<JobListResponse> {
    const { jobs, nextCursor } = await this.jobs.list(caller.userId, query);
    return { jobs: jobs.map(toJobResponse), next_cursor: nextCursor };
  }

  @Get(':job_id')
  @Access(READ)
  @JOB_ID_PARAM
  @ApiOperation({ summary: 'The job record.' })
  @ApiOkResponse({ type: JobResponse })
  @ApiNotFoundResponse()
  async get(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<JobResponse> {
    return toJobResponse(await this.jobs.get(caller.userId, jobId));
  }

  @Patch(':job_id/title')
  @Access(WRITE)
  @ApiOperation({ summary: 'Rename the job’s display title, in any state.' })
  @ApiOkResponse({ type: JobResponse })
  async rename(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Body() body: TitleDto,
  ): Promise<JobResponse> {
    return toJobResponse(await this.jobs.rename(caller.userId, jobId, body.title));
  }

  @Post(':job_id/action')
  @Idempotent()
  @HttpCode(200)
  @Access(WRITE)
  @ApiOperation({ summary: 'Retry (up to 3 times, free) or refund a failed job.' })
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(RetryResponse) }, { $ref: getSchemaPath(RefundResponse) }] },
  })
  async action(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Body() body: ActionDto,
  ): Promise<RetryResponse | RefundResponse> {
    if (body.action === 'retry') return { job_id: (await this.jobs.retry(caller.userId, jobId)).id, status: 'queued' };
    return { refunded: true, points: (await this.jobs.refund(callerOf(caller), jobId)).points };
  }

  @Post(':job_id/cancel')
  @Idempotent()
  @HttpCode(200)
  @Access(WRITE)
  @ApiOperation({
    summary:
      'Cancel a pending job (nothing was charged), a queued one (full refund) or a processing one: the worker stops after the page in hand, the pages finished stay downloadable (GET /jobs/{job_id}/download; `downloadable` stays false, as it is true only for done jobs) and the pages not processed are refunded at once.',
  })
  @ApiOkResponse({ type: JobResponse, description: 'The job, cancelled.' })
  @ApiAcceptedResponse({
    type: JobResponse,
    description:
      'A processing job whose worker had not stopped within 10 seconds: it is still `processing` and ends `cancelled` after its page in hand.',
  })
  async cancel(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JobResponse> {
    const job = toJobResponse(await this.jobs.cancel(callerOf(caller), jobId));
    if (job.status !== 'cancelled') reply.code(202);
    return job;
  }

  @Sse(':job_id/events')
  @Access(READ)
  @ApiOperation({
    summary:
      'Server-Sent Events of a job: `status` (first the current state, then each change), `progress` (done_pages/total_pages, done_files/total_files, done_media_seconds/media_duration_seconds) and `page` (a page of the result as it is final: its Markdown and blocks; a file without pages whole; joined in order the pages are the result) until the job is done, failed or cancelled; then the stream ends. Each `page` has an id: reconnect with `Last-Event-ID` to get the pages after it, each once; without it, every page delivered so far comes after the current state.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last `page` event received (`<attempt>.<n>`): the stream sends the pages after it.',
  })
  @ApiOkResponse({
    description:
      "An event stream: a `status` or `progress` event's data is the job's snapshot as JSON; a `page` event's is the page delivered: `{seq, retry, file, page, markdown, blocks}` (`page` null for a file delivered whole).",
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        example: 'event: status\ndata: {"job_id":"3f1c0d2e-5b7a-4c1e-9d2f-6a8b0c4e1f27","status":"processing"}\n\n',
      },
    },
  })
  async events(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Req() request: AuthenticatedRequest,
  ): Promise<Observable<{ type: string; data: unknown; id?: string }>> {
    await this.jobs.get(caller.userId, jobId); // the owner's job, or 404 before the stream opens
    const lastEventId = request.headers['last-event-id'];
    return this.stream.stream(jobId, typeof lastEventId === 'string' ? lastEventId : undefined);
  }

  @Get(':job_id/files')
  @Access(READ)
  @ApiOperation({
    summary:
      "The job's files, each with its exact format (DOC, ODT, CSV, EML, …), pages and images, and the members of its archives and e-mails that are not converted, with the reason.",
  })
  @ApiOkResponse({ type: JobFilesResponse })
  @ApiNotFoundResponse()
  async files(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<JobFilesResponse> {
    const { job, files } = await this.jobs.files(caller.userId, jobId);
    return toJobFilesResponse(job, files);
  }

  @Get(':job_id/pages')
  @Access(READ)
  @ApiOperation({
    summary:
      'How each page of a finished job was read: text layer or OCR (engine, confidence), and refinement outcomes.',
  })
  @ApiOkResponse({ type: PageReportResponse })
  pages(@Caller() caller: Principal, @Param('job_id', JOB_ID) jobId: string): Promise<PageReportResponse> {
    return this.results.pages(caller, jobId);
  }

  @Get(':job_id/chunks')
  @Access(READ)
  @JOB_ID_PARAM
  @ApiOperation({
    summary: `A finished job's result cut into chunks ready to embed, each with its heading path, pages and boxes, offsets in result.md, block ids in the structured result and token count (tokenizer ${TOKENIZER}, OpenAI's encoding of text-embedding-3). A chunk never cuts a table row, list item, formula or code block unless that one block is over max_tokens alone; a long table is cut between rows with its header repeated. Free, like the download; paged with cursor and limit.`,
  })
  @ApiOkResponse({
    description: 'A page of the chunks.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ChunkList' } } },
  })
  @ApiBadRequestResponse({
    description: 'The job is not done (`invalid_state`), or an option is out of range (`validation_failed`).',
  })
  @ApiNotFoundResponse()
  chunks(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Query() query: ChunksQuery,
  ): Promise<ChunkList> {
    return this.results.chunks(caller, jobId, query);
  }

  @Get(':job_id/pages/:page/preview')
  @Access(READ)
  @ApiOperation({
    summary:
      'A PNG preview of one page of a finished job (a PDF page or an image frame, at most 1200 px on its longer side), to set beside its blocks.',
  })
  @ApiProduces('image/png')
  @ApiParam({
    name: 'page',
    schema: { type: 'integer', minimum: 1 },
    example: 1,
    description: 'Page of the file, from 1.',
  })
  @ApiOkResponse({
    description: 'The page as a PNG.',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
  })
  async pagePreview(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Param('page') page: string,
    @Query() query: PreviewQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const png = await this.results.pagePreview(caller, jobId, query.file, page);
    reply.header('Content-Type', 'image/png');
    reply.header('Cache-Control', 'private, max-age=86400');
    return new StreamableFile(png);
  }

  @Post(':job_id/convert')
  @Idempotent()
  @HttpCode(200)
  @Access(WRITE)
  @ApiOperation({
    summary:
      'Convert a finished job to XLSX (basic or advanced), DOCX, PPTX or HWPX (Hancom Office). Only the first conversion of each format is charged (XLSX Basic 1, XLSX Advanced 3 per source page; DOCX, PPTX and HWPX free); asking again returns the same file.',
  })
  @ApiOkResponse({ type: ConversionResponse })
  @ApiBadRequestResponse({ description: 'The job is not done (`invalid_state`), or `format` is not one of the list.' })
  @ApiPaymentRequiredResponse({
    description: 'Not enough credits for the first XLSX conversion; the problem gives `needed` and `balance`.',
  })
  @ApiBadGatewayResponse({
    description:
      'The conversion failed (`conversion_failed`): `detail` says whether to try again or download the Markdown.',
  })
  async convert(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Body() body: ConvertDto,
  ): Promise<ConversionResponse> {
    const { downloadUrl, storagePath } = await this.conversions.convert(callerOf(caller), jobId, body.format);
    return { download_url: downloadUrl, format: body.format, storage_path: storagePath };
  }

  @Post(':job_id/xlsx-advanced-action')
  @Idempotent()
  @HttpCode(200)
  @Access(WRITE)
  @ApiOperation({ summary: 'Retry (free) or refund (3 per unit) a failed XLSX Advanced conversion.' })
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(ConversionRetryResponse) }, { $ref: getSchemaPath(RefundResponse) }] },
  })
  async xlsxAdvancedAction(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Body() body: ActionDto,
  ): Promise<ConversionRetryResponse | RefundResponse> {
    return toConversionActionResponse(await this.conversions.advancedAction(callerOf(caller), jobId, body.action));
  }

  @Get(':job_id/download')
  @Access(READ)
  @JOB_ID_PARAM
  @ApiOperation({
    summary:
      'The Markdown result of a finished job; with ?format=json its structured result, with ?format=zip both and the images; or a file a conversion produced. With ?partial=true, the pages finished so far while the job runs (X-Delivered-Pages says how many).',
  })
  @ApiOkResponse({ description: 'The file, as an attachment named after the job title.', content: DOWNLOAD_CONTENT })
  async download(
    @Caller() caller: Principal,
    @Param('job_id', JOB_ID) jobId: string,
    @Query() query: DownloadQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    if (query.partial === 'true') {
      const partial = await this.results.partial(caller, jobId);
      reply.header('Content-Type', 'text/markdown; charset=utf-8');
      reply.header('Content-Disposition', attachmentDisposition(partial.filename));
      reply.header('X-Delivered-Pages', String(partial.pages));
      reply.header('X-Result-Complete', String(partial.complete));
      return new StreamableFile(partial.body);
    }
    const { body, filename, contentType } = await this.results.download(caller, jobId, query.format);
    reply.header('Content-Type', contentType);
    reply.header('Content-Disposition', attachmentDisposition(filename));
    return new StreamableFile(body);
  }
}
