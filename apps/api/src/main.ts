import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { bootProcess, closeOnSignals, EX_CONFIG } from '@docconv/config';
import { createApiApp } from './api.factory';

async function main(): Promise<void> {
  const config = bootProcess('api');
  const app = await createApiApp(config);
  closeOnSignals(app, (error) => process.stderr.write(`docconv api: stopping failed: ${String(error)}\n`));
  try {
    await app.listen(config.http.port, '0.0.0.0');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(
        `docconv api: port ${config.http.port} is already in use: stop what listens there, or set PORT to a free port.\n`,
      );
      process.exit(EX_CONFIG);
    }
    throw error;
  }
  new Logger('Api').log(`API listening on http://localhost:${config.http.port} (docs at /api/docs)`);
}

main().catch((error: unknown) => {
  process.stderr.write(`docconv api failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
