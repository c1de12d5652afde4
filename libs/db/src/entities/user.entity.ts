import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from './column-types';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Stored lower-cased; unique. */
  @Column({ type: 'text' })
  email!: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  /** Milli-USD. A CHECK constraint keeps it from ever going below zero. */
  @Column({ name: 'points_balance', type: 'bigint', transformer: bigintNumber })
  pointsBalance!: number;

  /** Signs the user's webhook deliveries; created on first use, replaced by rotation. */
  @Column({ name: 'webhook_secret', type: 'text', nullable: true, select: false })
  webhookSecret!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
