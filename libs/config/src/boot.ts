import type { AppConfig } from './app-config';
import { ConfigError, loadConfig } from './load-config';
import { stopWithLauncher } from './local-stack';
import { claimScratchFolder } from './process-lifecycle';

/**
 * The exit code of a configuration error (EX_CONFIG of sysexits.h): starting the process again
 * cannot help, so the local stack's supervisor does not.
 */
export const EX_CONFIG = 78;

/**
 * The start every process of the service shares: its configuration read and validated (on a bad
 * one it names every bad variable and exits EX_CONFIG), then it follows the launcher that started
 * it and takes a scratch folder of its own. Returns the configuration.
 */
export function bootProcess(role: 'api' | 'worker'): AppConfig {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`docconv ${role}: ${error.message}\n`);
    process.exit(EX_CONFIG);
  }
  stopWithLauncher();
  claimScratchFolder(config.scratchDir, role);
  return config;
}
