import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError } from '@docconv/contracts';
import { UserEntity } from '@docconv/db';
import * as argon2 from 'argon2';
import { DataSource, type EntityManager } from 'typeorm';

export const MIN_PASSWORD_LENGTH = 8;

/** A hash of a password nobody has, so an unknown email costs as much time as a wrong password. */
const DUMMY_HASH_INPUT = 'docconv-timing-equaliser';

@Injectable()
export class UsersService {
  private dummyHash?: Promise<string>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(email: string, password: string): Promise<UserEntity> {
    const passwordHash = await hashPassword(password, 'password');
    const rows: UserEntity[] = await this.dataSource.query(
      `INSERT INTO users (email, password_hash) VALUES ($1, $2)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [normaliseEmail(email), passwordHash],
    );
    if (rows.length === 0) {
      throw new DomainError('email_taken', 'An account with this email already exists. Log in instead.');
    }
    return this.dataSource.getRepository(UserEntity).findOneByOrFail({ id: rows[0].id });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).findOneBy({ email: normaliseEmail(email) });
  }

  async getByEmail(email: string): Promise<UserEntity> {
    const user = await this.findByEmail(email);
    if (!user) throw new DomainError('user_not_found', `No user has the email ${normaliseEmail(email)}.`);
    return user;
  }

  /** The user when the password matches; null otherwise, after the same amount of work. */
  async verify(email: string, password: string): Promise<UserEntity | null> {
    const user = await this.findByEmail(email);
    if (!user) {
      this.dummyHash ??= argon2.hash(DUMMY_HASH_INPUT, { type: argon2.argon2id });
      await argon2.verify(await this.dummyHash, password);
      return null;
    }
    return (await argon2.verify(user.passwordHash, password)) ? user : null;
  }

  /** Whether `password` is the user's current one. */
  async hasPassword(userId: string, password: string): Promise<boolean> {
    const user = await this.dataSource.getRepository(UserEntity).findOneByOrFail({ id: userId });
    return argon2.verify(user.passwordHash, password);
  }

  /** Sets the user's password, within the caller's transaction. */
  async setPassword(m: EntityManager, userId: string, password: string, field: string): Promise<void> {
    const passwordHash = await hashPassword(password, field);
    await m.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  }
}

/** The argon2id hash of a password long enough to keep; `field` names it in the refusal. */
async function hashPassword(password: string, field: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new DomainError('validation_failed', `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`, {
      errors: [{ field, message: `must have at least ${MIN_PASSWORD_LENGTH} characters` }],
    });
  }
  return argon2.hash(password, { type: argon2.argon2id });
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
