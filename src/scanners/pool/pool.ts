// The worker-thread pool scans run in, shared by the skill scanner server and the sidecar's scan routes.
// Sized by --workers (default: one per core).
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ScanOutcome, ScanTask } from './worker.js';

export class ScanPool {
  private readonly piscina: Piscina;

  /** `eager`: start every thread now (a server), rather than as work arrives (the sidecar, the CLI). */
  constructor(size = availableParallelism(), eager = false) {
    const workerUrl = new URL('./worker.js', import.meta.url);
    let filename = fileURLToPath(workerUrl);
    // Under tsx (tests, `npm run bench`) the sources are .ts files and the worker must load tsx too.
    const fromSource = import.meta.url.endsWith('.ts');
    if (fromSource) filename = filename.replace(/\.js$/, '.ts');
    this.piscina = new Piscina({
      filename,
      minThreads: eager ? Math.max(1, size) : 1,
      maxThreads: Math.max(1, size),
      idleTimeout: 60_000,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
    });
  }

  get size(): number {
    return this.piscina.options.maxThreads;
  }

  run(task: ScanTask, signal?: AbortSignal): Promise<ScanOutcome> {
    return this.piscina.run(task, { signal }) as Promise<ScanOutcome>;
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
