import { Column, Entity } from 'typeorm';
import { UserOwnedRow } from './user-owned-row';

/** Why a session ended. */
export type SessionEndReason = 'logout' | 'revoked' | 'password_changed' | 'refresh_reused';

/** One log-in of a person: its access tokens name it, and ending it ends them all. */
@Entity({ name: 'sessions' })
export class SessionEntity extends UserOwnedRow {
  /** Counts refreshes: only the refresh token of this generation is accepted. */
  @Column({ name: 'refresh_generation', type: 'integer' })
  refreshGeneration!: number;

  /** The client's User-Agent header, cut to 200 characters. */
  @Column({ name: 'user_agent', type: 'text' })
  userAgent!: string;

  /** The address the session logged in from. */
  @Column({ name: 'ip_address', type: 'text' })
  ipAddress!: string;

  @Column({ name: 'last_used_at', type: 'timestamptz' })
  lastUsedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'revoked_reason', type: 'text', nullable: true })
  revokedReason!: SessionEndReason | null;
}
