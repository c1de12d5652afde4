import { Module } from '@nestjs/common';
import { FilesController } from './files.controller';
import { FilesService } from './files.service';

/** Serves the local store's files behind signed, expiring download links. */
@Module({
  controllers: [FilesController],
  providers: [FilesService],
})
export class FilesModule {}
