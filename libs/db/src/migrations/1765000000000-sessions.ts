import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A person's sessions, one per log-in: every access token names its session, and a session's
 * refresh token is the one of its current generation (an older one coming back ends it). Ended
 * sessions keep their row, with when and why they ended.
 */
export class Sessions1765000000000 implements MigrationInterface {
  name = 'Sessions1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        refresh_generation integer NOT NULL DEFAULT 0 CHECK (refresh_generation >= 0),
        user_agent text NOT NULL DEFAULT '' CHECK (length(user_agent) <= 200),
        ip_address text NOT NULL DEFAULT '' CHECK (length(ip_address) <= 64),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        revoked_reason text CHECK (revoked_reason IN ('logout', 'revoked', 'password_changed', 'refresh_reused')),
        CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL))
      )`,
    );
    await db.query(`CREATE INDEX sessions_user_created ON sessions (user_id, created_at DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE sessions`);
  }
}
