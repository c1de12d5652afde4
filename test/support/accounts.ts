import type TestAgent from 'supertest/lib/agent';
import { uniqueEmail } from './test-app';

export interface TestUser {
  userId: string;
  email: string;
  password: string;
  jwt: string;
  /** Renews the sign-up's session once (POST /api/v1/auth/refresh). */
  refreshToken: string;
}

export interface TestKey {
  id: string;
  key: string;
  prefix: string;
}

export async function signup(http: TestAgent, tag = 'user'): Promise<TestUser> {
  const email = uniqueEmail(tag);
  const password = 'correct horse battery';
  const res = await http.post('/api/v1/auth/signup').send({ email, password }).expect(201);
  return {
    userId: res.body.user_id,
    email,
    password,
    jwt: res.body.access_token,
    refreshToken: res.body.refresh_token,
  };
}

export async function createKey(http: TestAgent, user: TestUser, body: Record<string, unknown> = {}): Promise<TestKey> {
  const res = await http.post('/api/v1/keys').set('Authorization', `Bearer ${user.jwt}`).send(body).expect(201);
  return { id: res.body.id, key: res.body.key, prefix: res.body.prefix };
}
