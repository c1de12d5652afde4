#!/usr/bin/env node
/**
 * Generates the Python, Go and Java SDKs (clients/python, clients/go, clients/java) from the
 * repository's openapi.json with openapi-generator-cli, which scripts/setup-tests.sh installs under
 * .tools/openapi-generator. Each language's options are in clients/<language>/openapi-generator.yaml;
 * the files its .openapi-generator-ignore names (README, build files, smoke program) are written by hand
 * and kept, and clients/<language>/templates, where present, replaces some of the generator's templates.
 *
 *   node clients/generate-sdks.mjs                 regenerates every SDK in place (`npm run sdks`)
 *   node clients/generate-sdks.mjs go              regenerates the named ones only
 *   node clients/generate-sdks.mjs --out <folder>  writes <folder>/<language> instead, for the test that
 *                                                  keeps the committed SDKs current
 *
 * In place, the files the previous generation listed (.openapi-generator/FILES) are removed first, so a
 * schema or operation that left the document leaves no file behind.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GENERATOR_VERSION = '7.25.0';
export const LANGUAGES = ['python', 'go', 'java'];

const CLIENTS = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(CLIENTS, '..');
const JAR = join(ROOT, '.tools', 'openapi-generator', `openapi-generator-cli-${GENERATOR_VERSION}.jar`);

function run(command, args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolvePromise(output)
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/** Removes what the last generation into `folder` wrote, as listed in its .openapi-generator/FILES. */
async function removeGenerated(folder) {
  const list = join(folder, '.openapi-generator', 'FILES');
  if (!existsSync(list)) return;
  const files = (await readFile(list, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  for (const file of files) await rm(join(folder, file), { force: true });
}

async function generate(language, outRoot) {
  const source = join(CLIENTS, language);
  const target = outRoot ? join(outRoot, language) : source;
  if (outRoot) {
    await mkdir(target, { recursive: true });
    await copyFile(join(source, '.openapi-generator-ignore'), join(target, '.openapi-generator-ignore'));
  } else {
    await removeGenerated(target);
  }
  // clients/<language>/templates, where present, holds generator templates that replace the built-in ones.
  const templates = join(source, 'templates');
  await run('java', [
    '-jar',
    JAR,
    'generate',
    '--input-spec',
    join(ROOT, 'openapi.json'),
    '--config',
    join(source, 'openapi-generator.yaml'),
    ...(existsSync(templates) ? ['--template-dir', templates] : []),
    '--output',
    target,
  ]);
  return target;
}

async function main() {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const outRoot = outIndex >= 0 ? resolve(args[outIndex + 1]) : undefined;
  if (outIndex >= 0) args.splice(outIndex, 2);
  const unknown = args.filter((language) => !LANGUAGES.includes(language));
  if (unknown.length > 0) throw new Error(`Unknown SDK ${unknown.join(', ')}: choose from ${LANGUAGES.join(', ')}`);
  if (!existsSync(JAR)) {
    throw new Error(
      `${JAR} is missing: run ./scripts/setup-tests.sh, which installs openapi-generator-cli ${GENERATOR_VERSION}`,
    );
  }
  const languages = args.length > 0 ? args : LANGUAGES;
  const written = await Promise.all(languages.map((language) => generate(language, outRoot)));
  for (const folder of written) process.stdout.write(`wrote ${folder}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
