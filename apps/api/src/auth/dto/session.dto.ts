import { ApiProperty } from '@nestjs/swagger';
import type { SessionEntity } from '@docconv/db';
import { wireTime } from '../../common/wire';

/** A live session of the caller, without anything that would let it be used. */
export class SessionResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The User-Agent of the log-in, cut to 200 characters; empty when none was sent.' })
  user_agent!: string;
  @ApiProperty({ description: 'The address the session logged in from.', example: '203.0.113.7' })
  ip_address!: string;
  @ApiProperty({ example: '2026-11-22T08:04:11' }) created_at!: string;
  @ApiProperty({ description: 'Last request or refresh, to the minute.', example: '2026-11-22T09:30:00' })
  last_used_at!: string;
  @ApiProperty({ description: 'When the session ends unless it is ended sooner.', example: '2026-12-22T08:04:11' })
  expires_at!: string;
  @ApiProperty({ description: 'Whether this is the session making the request.' }) current!: boolean;
}

export function toSessionResponse(session: SessionEntity, currentSessionId: string | null): SessionResponse {
  return {
    id: session.id,
    user_agent: session.userAgent,
    ip_address: session.ipAddress,
    created_at: wireTime(session.createdAt),
    last_used_at: wireTime(session.lastUsedAt),
    expires_at: wireTime(session.expiresAt),
    current: session.id === currentSessionId,
  };
}
