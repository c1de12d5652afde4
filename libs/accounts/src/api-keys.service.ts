import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError, SCOPES, type Scope } from '@docconv/contracts';
import { ApiKeyEntity } from '@docconv/db';
import { hash, randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiKeyCache } from './api-key-cache';

/** Keys look like `dcv_` + 43 characters of base64url (32 random bytes). */
export const KEY_PATTERN = /^dcv_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 12;

export interface KeySettings {
  name?: string;
  scopes?: Scope[];
  rateLimitRpm?: number;
  dailyQuota?: number | null;
}

export interface IssuedKey {
  entity: ApiKeyEntity;
  /** The whole key: shown to its owner once, stored nowhere. */
  secret: string;
}

export const DEFAULT_RATE_LIMIT_RPM = 60;

export function hashKey(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cache: ApiKeyCache,
  ) {}

  create(userId: string, settings: KeySettings): Promise<IssuedKey> {
    return this.insert(this.dataSource.manager, userId, {
      name: settings.name ?? '',
      scopes: settings.scopes ?? [...SCOPES],
      rateLimitRpm: settings.rateLimitRpm ?? DEFAULT_RATE_LIMIT_RPM,
      dailyQuota: settings.dailyQuota ?? null,
    });
  }

  /** Deactivates the key and issues its successor with the same settings, in one transaction. */
  async rotate(userId: string, keyId: string): Promise<IssuedKey> {
    const issued = await this.dataSource.transaction(async (m) => {
      const old: ApiKeyEntity[] = await m.query(
        `WITH old AS (
           UPDATE api_keys SET is_active = false, deactivated_at = now()
            WHERE id = $1 AND user_id = $2 AND is_active
            RETURNING name, scopes, rate_limit_rpm AS "rateLimitRpm", daily_quota AS "dailyQuota")
         SELECT * FROM old`,
        [keyId, userId],
      );
      if (old.length === 0) throw keyNotFound(keyId);
      const { name, scopes, rateLimitRpm, dailyQuota } = old[0];
      return this.insert(m, userId, {
        name,
        scopes: scopes as Scope[],
        rateLimitRpm,
        dailyQuota: dailyQuota === null ? null : Number(dailyQuota),
      });
    });
    await this.cache.changed(keyId);
    return issued;
  }

  list(userId: string): Promise<ApiKeyEntity[]> {
    return this.dataSource.getRepository(ApiKeyEntity).find({ where: { userId }, order: { createdAt: 'DESC' } });
  }

  async update(userId: string, keyId: string, settings: KeySettings): Promise<ApiKeyEntity> {
    const repository = this.dataSource.getRepository(ApiKeyEntity);
    const changes: Partial<ApiKeyEntity> = {};
    if (settings.name !== undefined) changes.name = settings.name;
    if (settings.scopes !== undefined) changes.scopes = settings.scopes;
    if (settings.rateLimitRpm !== undefined) changes.rateLimitRpm = settings.rateLimitRpm;
    if (settings.dailyQuota !== undefined) changes.dailyQuota = settings.dailyQuota;
    if (Object.keys(changes).length > 0) {
      const result = await repository.update({ id: keyId, userId, isActive: true }, changes);
      if (result.affected === 0) throw keyNotFound(keyId);
      await this.cache.changed(keyId);
    }
    const key = await repository.findOneBy({ id: keyId, userId, isActive: true });
    if (!key) throw keyNotFound(keyId);
    return key;
  }

  async deactivate(userId: string, keyId: string): Promise<ApiKeyEntity> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH changed AS (
         UPDATE api_keys SET is_active = false, deactivated_at = now()
          WHERE id = $1 AND user_id = $2 AND is_active RETURNING id)
       SELECT id FROM changed`,
      [keyId, userId],
    );
    if (rows.length === 0) throw keyNotFound(keyId);
    await this.cache.changed(keyId);
    return this.dataSource.getRepository(ApiKeyEntity).findOneByOrFail({ id: keyId });
  }

  /**
   * The active key with this secret, kept in memory for a few seconds (ApiKeyCache); every change
   * above drops it in every API process as soon as it commits, so a deactivated key fails at once.
   */
  findActiveBySecret(secret: string): Promise<ApiKeyEntity | null> {
    // The cache is keyed by the hash in base64, made in one call; the bytes are only needed to ask PostgreSQL.
    const id = hash('sha256', secret, 'base64');
    return this.cache.find(id, () =>
      this.dataSource.getRepository(ApiKeyEntity).findOneBy({ keyHash: Buffer.from(id, 'base64'), isActive: true }),
    );
  }

  private async insert(
    m: EntityManager,
    userId: string,
    settings: Required<KeySettings> & { name: string },
  ): Promise<IssuedKey> {
    const secret = `dcv_${randomBytes(32).toString('base64url')}`;
    const entity = m.create(ApiKeyEntity, {
      userId,
      name: settings.name,
      prefix: secret.slice(0, PREFIX_LENGTH),
      keyHash: hashKey(secret),
      scopes: settings.scopes,
      rateLimitRpm: settings.rateLimitRpm,
      dailyQuota: settings.dailyQuota,
      isActive: true,
      deactivatedAt: null,
    });
    const saved = await m.save(entity);
    return { entity: saved, secret };
  }
}

function keyNotFound(keyId: string): DomainError {
  return new DomainError(
    'key_not_found',
    `No active API key ${keyId} belongs to you. List your keys with GET /api/v1/keys.`,
  );
}
