import 'reflect-metadata';
import { claimScratchFolder, closeOnSignals, ConfigError, loadConfig } from '@docconv/config';
import { createApiApp } from './api.factory';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`docconv api: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  claimScratchFolder(config.scratchDir, 'api');
  const app = await createApiApp(config);
  closeOnSignals(app, (error) => process.stderr.write(`docconv api: stopping failed: ${String(error)}\n`));
  await app.listen(config.http.port, '0.0.0.0');
  process.stdout.write(
    JSON.stringify({ level: 30, msg: `API listening on http://localhost:${config.http.port} (docs at /api/docs)` }) +
      '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`docconv api failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
