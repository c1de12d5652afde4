import { benchHttp } from './http.bench';
import { benchIntake } from './intake.bench';
import { benchOcr } from './ocr.bench';
import { benchPdf } from './pdf.bench';
import { benchScale } from './scale.bench';
import { benchWorkerMemory } from './worker-memory.bench';

/** `npm run bench [-- <name>…]`: runs the named benchmarks (all by default) and prints their tables. */
const BENCHES: Record<string, () => Promise<string>> = {
  intake: benchIntake,
  'worker-memory': benchWorkerMemory,
  ocr: benchOcr,
  http: benchHttp,
  pdf: benchPdf,
  scale: benchScale,
};

async function main(): Promise<void> {
  const names = process.argv.slice(2).filter((a) => a !== '--');
  const chosen = names.length > 0 ? names : Object.keys(BENCHES);
  for (const name of chosen) {
    const bench = BENCHES[name];
    if (!bench) throw new Error(`Unknown benchmark ${name}. Available: ${Object.keys(BENCHES).join(', ')}`);
    process.stdout.write(`${await bench()}\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
