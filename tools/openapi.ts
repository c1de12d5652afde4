import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { generateOpenApiDocument } from '../apps/api/src/openapi/openapi-document';

/** `npm run openapi`: writes the API's OpenAPI document to openapi.json at the repository root. */
async function main(): Promise<void> {
  const document = await generateOpenApiDocument();
  const target = resolve('openapi.json');
  await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`wrote ${target}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
