import { loadConfig } from '@docconv/config';
import { REPO_ROOT } from '@docconv/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

interface Service {
  image?: string;
  build?: { target: string };
  environment?: Record<string, string | number>;
  deploy?: { replicas: number };
  ports?: string[];
  volumes?: string[];
  stop_grace_period?: string;
}

const compose = parse(readFileSync(join(REPO_ROOT, 'docker', 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const { services } = compose;

/** The value compose would give an interpolated `${NAME:?…}` (a secret set by the operator) or `${NAME:-default}`. */
function interpolated(value: string | number): string {
  return String(value)
    .replace(/\$\{[A-Z0-9_]+:\?[^}]*\}/g, 's'.repeat(40))
    .replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');
}

function environmentOf(name: string): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(services[name].environment ?? {}).map(([key, value]) => [key, interpolated(value)]),
  );
}

describe('docker/compose.yaml', () => {
  it('runs two API replicas behind nginx on port 3000 and three workers', () => {
    expect(services.api.deploy?.replicas).toBe(2);
    expect(services.api.ports).toBeUndefined(); // reached through the proxy only
    expect(services.worker.deploy?.replicas).toBe(3);
    expect(services.proxy.ports).toEqual(['3000:80']);
    expect(services.proxy.volumes).toEqual(['./nginx.conf:/etc/nginx/conf.d/default.conf:ro']);
    const nginx = readFileSync(join(REPO_ROOT, 'docker', 'nginx.conf'), 'utf8');
    expect(nginx).toMatch(/upstream api \{\s*server api:3000;\s*\}/);
    expect(nginx).toMatch(/proxy_pass http:\/\/api;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(Object.keys(services).sort()).toEqual([
      'api',
      'minio',
      'minio-bucket',
      'postgres',
      'proxy',
      'redis',
      'worker',
    ]);
  });

  it('gives the API and the workers a configuration they start with, metrics on for each worker', () => {
    // The images run in production (docker/Dockerfile), which needs the public URL links start with.
    const api = loadConfig({ ...environmentOf('api'), NODE_ENV: 'production' });
    expect(api.publicBaseUrl).toBe('http://localhost:3000');
    expect(api.storage.driver).toBe('s3');
    // nginx's address is on the compose network: its X-Forwarded-For must be trusted, or every
    // client would count as nginx against the sign-up and login limits.
    expect(api.http.trustedProxies).toEqual(['loopback', 'uniquelocal']);
    expect(api.operator.adminToken).toBeNull(); // off until the operator sets ADMIN_TOKEN
    const worker = loadConfig({ ...environmentOf('worker'), NODE_ENV: 'production' });
    expect(worker.operator.workerMetricsPort).toBe(9464);
    // A stopping worker finishes the page in hand, even one that runs into its safety valve.
    expect(Number.parseInt(services.worker.stop_grace_period ?? '0', 10)).toBeGreaterThan(
      worker.engines.ocrPageDeadlineSeconds,
    );
  });
});
