import { SessionsService, UsersService } from '@docconv/accounts';
import { LedgerService } from '@docconv/billing';
import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

export const USAGE = `usage: npm run admin -- <command> [options]

  create-user --email E --password P          create an account
  grant --email E --points N [--description D] add N points (a 'grant' credit transaction)
  issue-jwt --email E                          start a session for that user and print its access token`;

/** Runs one admin command; returns what to print. Throws with a readable message on bad input. */
export async function runCommand(app: INestApplicationContext, argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      points: { type: 'string' },
      description: { type: 'string' },
    },
    strict: true,
  });
  const users = app.get(UsersService);
  const need = (name: keyof typeof values): string => {
    const value = values[name];
    if (!value) throw new Error(`${command} needs --${name}\n\n${USAGE}`);
    return value;
  };

  switch (command) {
    case 'create-user': {
      const user = await users.create(need('email'), need('password'));
      return JSON.stringify({ user_id: user.id, email: user.email });
    }
    case 'grant': {
      const points = Number(need('points'));
      if (!Number.isSafeInteger(points) || points <= 0) throw new Error('--points must be a positive whole number');
      const user = await users.getByEmail(need('email'));
      const { transaction } = await app.get(LedgerService).post({
        userId: user.id,
        type: 'grant',
        points,
        description: values.description ?? 'Granted by an operator',
        idempotencyKey: `grant:${randomUUID()}`,
      });
      return JSON.stringify({ user_id: user.id, granted: points, balance: transaction.balanceAfter });
    }
    case 'issue-jwt': {
      const user = await users.getByEmail(need('email'));
      const session = await app.get(SessionsService).open(user.id, { userAgent: 'docconv admin', ipAddress: '' });
      return session.access_token;
    }
    default:
      throw new Error(command ? `Unknown command ${command}\n\n${USAGE}` : USAGE);
  }
}
