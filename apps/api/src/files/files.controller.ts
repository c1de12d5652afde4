import { Controller, Get, Query, Req, Res, StreamableFile } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachmentDisposition, SERVED_MEDIA_TYPES } from '@docconv/storage';
import { Public } from '../auth/access.decorator';
import { FilesService } from './files.service';

@ApiTags('files')
@Controller('files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  /**
   * The target of the local store's signed download links. The link itself is the
   * credential, so the route takes no other; query parameters may arrive repeated, and
   * the link check refuses anything that is not a single value. The storage path is the rest
   * of the address (`path` in the documentation; the router's wildcard).
   */
  @Get('*')
  @Public()
  @ApiOperation({
    summary: 'Download a stored file through a signed, expiring link.',
    description:
      'Links come from the API (e.g. a result download URL) and last SIGNED_URL_TTL_SECONDS, 15 minutes by default. ' +
      'Only results and inputs can be downloaded.',
  })
  @ApiParam({
    name: 'path',
    type: String,
    description: 'Storage path of the file, as the signed link gives it.',
    example: 'results/3f1c0d2e-5b7a-4c1e-9d2f-6a8b0c4e1f27/result.docx',
  })
  @ApiQuery({
    name: 'expires',
    schema: { type: 'integer', example: 1795334400 },
    description: 'Unix time in seconds when the link stops working.',
  })
  @ApiQuery({
    name: 'token',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    description: 'Hex HMAC-SHA256 signature of the path, expiry and download name.',
  })
  @ApiQuery({ name: 'filename', required: false, type: String, description: 'Name the file is saved under.' })
  @ApiOkResponse({
    description: 'The file, as an attachment when the link names it; its media type follows its extension.',
    content: Object.fromEntries(
      SERVED_MEDIA_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  })
  @ApiForbiddenResponse({
    description: 'Missing, altered or expired link, or a path outside results and inputs (`signed_url_invalid`).',
  })
  @ApiNotFoundResponse({ description: 'The link is valid but the file no longer exists.' })
  async download(
    @Req() request: FastifyRequest<{ Params: { '*': string } }>,
    @Query('expires') expires: unknown,
    @Query('token') token: unknown,
    @Query('filename') filename: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    const file = await this.files.open(request.params['*'], { expires, token, filename });
    reply.header('Content-Type', file.contentType);
    if (file.filename !== null) reply.header('Content-Disposition', attachmentDisposition(file.filename));
    return new StreamableFile(file.body);
  }
}
