import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { IsEmail, IsInt, Max, Min } from 'class-validator';
import { DomainError } from '@docconv/contracts';
import { Public } from '../apps/api/src/auth/access.decorator';
import { createTestApp, type TestApp } from './support/test-app';

class ProbeBody {
  @IsEmail()
  email!: string;

  @IsInt()
  @Min(1)
  @Max(10)
  count!: number;
}

/** Routes that fail on purpose, so the real filter can be watched from outside. */
@Controller('probe')
class ProbeController {
  @Get('domain')
  @Public()
  domain(): never {
    throw new DomainError('insufficient_credits', 'This needs 120 points but the balance is 40.', {
      extensions: { needed: 120, balance: 40 },
    });
  }

  @Post('validated')
  @Public()
  validated(@Body() body: ProbeBody): ProbeBody {
    return body;
  }

  @Get('crash')
  @Public()
  crash(): never {
    throw new Error('relation "secret_table" does not exist at /srv/app/secret.ts:12');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('errors are RFC 9457 problem+json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('a domain error keeps its code, status and extensions', async () => {
    const res = await t.http.get('/api/v1/probe/domain');
    expect(res.status).toBe(402);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: 'https://docconv.dev/problems/insufficient-credits',
      title: 'Not enough credits',
      status: 402,
      code: 'insufficient_credits',
      detail: 'This needs 120 points but the balance is 40.',
      needed: 120,
      balance: 40,
    });
  });

  it('a validation error lists each failing field', async () => {
    const res = await t.http.post('/api/v1/probe/validated').send({ email: 'not-an-email', count: 99, extra: 1 });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'validation_failed', title: 'Invalid request' });
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['count', 'email', 'extra']);
  });

  it('an unexpected error is a 500 with an error id and nothing internal', async () => {
    const res = await t.http.get('/api/v1/probe/crash');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('internal_error');
    expect(res.body.error_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.detail).toContain(res.body.error_id);
    const raw = JSON.stringify(res.body);
    for (const leak of ['secret_table', '/srv/app', 'stack', 'at ', '.ts:']) expect(raw).not.toContain(leak);
  });

  it('malformed JSON and unknown routes are problems too', async () => {
    const malformed = await t.http
      .post('/api/v1/probe/validated')
      .set('content-type', 'application/json')
      .send('{"email":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'malformed_request', title: 'Malformed request' });
    expect(malformed.body.detail).toMatch(/not valid JSON/);

    const missing = await t.http.get('/api/v1/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(missing.body).toMatchObject({ code: 'not_found', title: 'Not found' });
  });

  it('a body the framework refuses gets a code and a title of its own', async () => {
    const latin1 = await t.http
      .post('/api/v1/probe/validated')
      .set('content-type', 'application/json; charset=iso-8859-1')
      .send('{"email":"a@example.com","count":1}');
    expect(latin1.status).toBe(415);
    expect(latin1.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(latin1.body).toMatchObject({
      type: 'https://docconv.dev/problems/unsupported-media-type',
      code: 'unsupported_media_type',
      title: 'Unsupported media type',
      status: 415,
    });
    expect(latin1.body.detail).toMatch(/send it as UTF-8/);

    const crash = await t.http.get('/api/v1/probe/crash');
    expect(crash.body.title).toBe('Internal error');
  });
});
