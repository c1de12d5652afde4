#!/usr/bin/env node
/**
 * Generates src/schema.d.ts, the SDK's types for every path and schema of the API, from the
 * repository's openapi.json (written by `npm run openapi`, which runs this script after it).
 *
 *   node scripts/generate-schema.mjs            writes src/schema.d.ts
 *   node scripts/generate-schema.mjs --stdout   prints it instead, for the test that keeps it current
 *
 * Binary fields (`format: binary`, the upload's files) become `Blob` rather than `string`, so
 * the upload call takes real files; fields with a default stay optional, since the service
 * fills them in. The output is formatted with the repository's Prettier
 * settings, so `npm run lint` accepts it as generated.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import * as prettier from 'prettier';
import ts from 'typescript';

const CLIENT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OPENAPI_JSON = resolve(CLIENT_ROOT, '..', '..', 'openapi.json');
const TARGET = resolve(CLIENT_ROOT, 'src', 'schema.d.ts');

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());

/** Maps binary string schemas to Blob; every other schema keeps openapi-typescript's type. */
function binaryAsBlob(schema) {
  if (schema.format !== 'binary') return undefined;
  return schema.nullable ? ts.factory.createUnionTypeNode([BLOB, NULL]) : BLOB;
}

/** The formatted text of schema.d.ts for the current openapi.json. */
async function generate() {
  const document = JSON.parse(await readFile(OPENAPI_JSON, 'utf8'));
  // Defaults are filled by the service, so a field with one stays optional in request bodies.
  const ast = await openapiTS(document, { transform: binaryAsBlob, defaultNonNullable: false });
  const source = `${COMMENT_HEADER}${astToString(ast)}`;
  const options = await prettier.resolveConfig(TARGET);
  return prettier.format(source, { ...options, filepath: TARGET });
}

async function main() {
  const text = await generate();
  if (process.argv.includes('--stdout')) {
    process.stdout.write(text);
    return;
  }
  await writeFile(TARGET, text);
  process.stdout.write(`wrote ${TARGET}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
