import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './column-types';

/** One input file of a job, in upload order (after archive extraction). */
@Entity({ name: 'job_files' })
export class JobFileEntity {
  @PrimaryColumn({ name: 'job_id', type: 'uuid' }) jobId!: string;
  @PrimaryColumn({ type: 'integer' }) seq!: number;
  /** The path a person recognises: the upload's name or its relative path. */
  @Column({ name: 'display_path', type: 'text' }) displayPath!: string;
  @Column({ name: 'storage_path', type: 'text' }) storagePath!: string;
  @Column({ type: 'text' }) kind!: string;
  @Column({ name: 'mime_type', type: 'text' }) mimeType!: string;
  @Column({ type: 'bigint', transformer: bigintNumber }) bytes!: number;
  @Column({ type: 'integer' }) pages!: number;
  @Column({ type: 'integer' }) images!: number;
  @Column({ name: 'duration_seconds', type: 'integer' }) durationSeconds!: number;
  /** A PDF some sampled page of which has no text layer: its pages will need OCR (intake's look). */
  @Column({ name: 'needs_ocr', type: 'boolean' }) needsOcr!: boolean;
}
