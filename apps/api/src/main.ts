import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { claimScratchFolder, closeOnSignals, ConfigError, loadConfig, stopWithLauncher } from '@docconv/config';
import { createApiApp } from './api.factory';

/** A configuration error (EX_CONFIG): the local stack's supervisor does not start the API again. */
const EX_CONFIG = 78;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`docconv api: ${error.message}\n`);
      process.exit(EX_CONFIG);
    }
    throw error;
  }
  stopWithLauncher();
  claimScratchFolder(config.scratchDir, 'api');
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
