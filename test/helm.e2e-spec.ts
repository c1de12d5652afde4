import { QUEUE_NAMES } from '@docconv/contracts';
import { loadConfig } from '@docconv/config';
import { REPO_ROOT, TEST_OUTPUT } from '@docconv/testing';
import Ajv from 'ajv';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const CHART = join(REPO_ROOT, 'deploy', 'helm', 'docconv');
const HELM = join(REPO_ROOT, '.tools', 'bin', 'helm');
const VALIDATE = join(REPO_ROOT, '.venv', 'bin', 'kubernetes-validate');
const SCALED_OBJECT_CRD = join(REPO_ROOT, '.tools', 'crds', 'keda.sh_scaledobjects.yaml');
/** The cluster version the chart is rendered and validated for (the chart asks for ≥ 1.27). */
const KUBERNETES = '1.33.0';

interface Manifest {
  kind: string;
  apiVersion: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
}

function helm(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(HELM, args, { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The one value the chart cannot default: where clients reach the service. */
const PUBLIC_BASE_URL = 'publicBaseUrl=https://docconv.example.com';

/** The chart rendered with `--set` values, as a list of manifests (its text kept in test-output/helm). */
function render(name: string, ...sets: string[]): Manifest[] {
  const run = helm(
    'template',
    'docconv',
    CHART,
    '--kube-version',
    KUBERNETES,
    ...[PUBLIC_BASE_URL, ...sets].flatMap((s) => ['--set', s]),
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  mkdirSync(join(TEST_OUTPUT, 'helm'), { recursive: true });
  writeFileSync(join(TEST_OUTPUT, 'helm', `${name}.yaml`), run.stdout);
  return parseAllDocuments(run.stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

const named = (manifests: Manifest[], kind: string, name: string): Manifest => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered chart`);
  return found;
};
const containerOf = (deployment: Manifest) => deployment.spec.template.spec.containers[0];
const envOf = (deployment: Manifest): Record<string, string> =>
  Object.fromEntries(
    (containerOf(deployment).env ?? []).map((e: { name: string; value: string }) => [e.name, e.value]),
  );

describe('the Helm chart', () => {
  beforeAll(() => {
    for (const tool of [HELM, VALIDATE, SCALED_OBJECT_CRD])
      if (!existsSync(tool)) throw new Error(`${tool} is missing: run ./scripts/setup-tests.sh, which installs it.`);
  });

  it('passes helm lint --strict', () => {
    const run = helm('lint', '--strict', CHART, '--kube-version', KUBERNETES, '--set', PUBLIC_BASE_URL);
    expect(run.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(run.status).toBe(0);
  });

  it("renders manifests that Kubernetes' schemas and KEDA's accept, strictly", () => {
    const manifests = render('keda', 'keda.enabled=true');
    const validated = spawnSync(VALIDATE, ['--strict', '-k', KUBERNETES, join(TEST_OUTPUT, 'helm', 'keda.yaml')], {
      encoding: 'utf8',
    });
    expect(validated.stdout + validated.stderr).not.toMatch(/ERROR|failed/);
    expect(validated.status).toBe(0);
    const passed = validated.stdout.match(/passed for resource/g) ?? [];
    const scaled = manifests.filter((m) => m.kind === 'ScaledObject');
    expect(passed).toHaveLength(manifests.length - scaled.length);

    // ScaledObject is KEDA's own kind: checked against the schema of KEDA's CRD.
    const crd = parse(readFileSync(SCALED_OBJECT_CRD, 'utf8')) as {
      spec: { versions: { name: string; schema: { openAPIV3Schema: object } }[] };
    };
    const schema = crd.spec.versions.find((v) => v.name === 'v1alpha1')!.schema.openAPIV3Schema;
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    expect(scaled.map((m) => m.metadata.name).sort()).toEqual([
      'docconv-worker-conversions',
      'docconv-worker-office',
      'docconv-worker-parse',
      'docconv-worker-speech',
    ]);
    for (const object of scaled) {
      expect({ name: object.metadata.name, errors: validate(object) ? null : validate.errors }).toEqual({
        name: object.metadata.name,
        errors: null,
      });
    }
  });

  it('runs a worker pool per kind of work (OCR, office, speech), every queue served, each scaled on its own queues by KEDA', () => {
    const manifests = render('pools', 'keda.enabled=true');
    const pools = ['parse', 'office', 'speech', 'conversions', 'background'].map((pool) =>
      named(manifests, 'Deployment', `docconv-worker-${pool}`),
    );
    const queues = pools.flatMap((pool) => envOf(pool).WORKER_QUEUES.split(','));
    expect([...queues].sort()).toEqual([...QUEUE_NAMES].sort());
    for (const pool of pools) {
      const env = envOf(pool);
      // What the pods get is a configuration the worker starts with.
      const config = loadConfig({
        DATABASE_URL: 'postgres://u:p@db:5432/docconv',
        REDIS_URL: 'redis://redis:6379',
        JWT_SECRET: 's'.repeat(40),
        FILE_URL_SECRET: 's'.repeat(40),
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        ...named(manifests, 'ConfigMap', 'docconv').data,
        ...env,
      });
      expect(config.worker.queues).toEqual(env.WORKER_QUEUES.split(','));
      expect(config.operator.workerMetricsPort).toBe(9464);
      // A stopping worker finishes the page in hand, even one that runs into its safety valve.
      expect(pool.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
        config.engines.ocrPageDeadlineSeconds,
      );
      expect(containerOf(pool).envFrom).toEqual([
        { configMapRef: { name: 'docconv' } },
        { secretRef: { name: 'docconv' } },
      ]);
    }
    // KEDA owns the scaled pools' replica counts; the background pool keeps its own.
    expect(pools.map((pool) => pool.spec.replicas)).toEqual([undefined, undefined, undefined, undefined, 1]);
    for (const queue of ['parse', 'office', 'speech']) {
      const scaled = named(manifests, 'ScaledObject', `docconv-worker-${queue}`);
      expect(scaled.spec.scaleTargetRef).toEqual({ name: `docconv-worker-${queue}` });
      expect(scaled.spec.triggers[0].type).toBe('prometheus');
      expect(scaled.spec.triggers[0].metadata.query).toBe(
        `sum(max by (queue, state) (docconv_queue_jobs{queue=~"${queue}",state=~"waiting|prioritized|active"}))`,
      );
    }
    // A speech pod holds one model and reads one recording at a time.
    expect(envOf(named(manifests, 'Deployment', 'docconv-worker-speech')).WORKER_CONCURRENCY).toBe('1');
  });

  it('scales the API on CPU, keeps secrets by reference and migrates before each install and upgrade', () => {
    const manifests = render('defaults');
    expect(manifests.some((m) => m.kind === 'ScaledObject')).toBe(false); // KEDA is off by default
    expect(manifests.some((m) => m.kind === 'Secret')).toBe(false);
    const api = named(manifests, 'Deployment', 'docconv-api');
    expect(api.spec.replicas).toBeUndefined();
    expect(named(manifests, 'HorizontalPodAutoscaler', 'docconv-api').spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: 'docconv-api' },
      minReplicas: 2,
    });
    expect(envOf(api).TRUSTED_PROXIES).toBe('loopback,uniquelocal');
    // The images run as their `node` user; Kubernetes can only check a numeric one is not root.
    for (const name of ['docconv-api', 'docconv-worker-parse'])
      expect(containerOf(named(manifests, 'Deployment', name)).securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
      });
    const migrate = named(manifests, 'Job', 'docconv-migrate');
    expect(migrate.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(containerOf(migrate).command).toEqual(['node', 'dist/tools/migrate.js']);
  });

  it('refuses to render without the public URL every link starts with, saying what it is', () => {
    const run = helm('template', 'docconv', CHART, '--kube-version', KUBERNETES);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/publicBaseUrl: the address clients reach docconv at/);
  });

  it('refuses to render without the Secret it reads, saying what it must hold', () => {
    const run = helm(
      'template',
      'docconv',
      CHART,
      '--kube-version',
      KUBERNETES,
      '--set',
      PUBLIC_BASE_URL,
      '--set',
      'existingSecret=',
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/existingSecret: name the Secret that holds DATABASE_URL, REDIS_URL, JWT_SECRET/);
  });
});
