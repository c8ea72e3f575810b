// Runs one scan in its own worker thread and bounds it: the scan stops walking at its deadline by itself; a
// worker still busy a grace period later (a hung read on a slow mount) is terminated and the scan fails with
// 504, so no scan outlives `ai_discovery.timeout_ms` by more than the grace. A closing gateway stops it at once.
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { WardenError } from '../errors.js';
import type { RawScan, ScanInput } from './scan.js';

/** Time past the deadline for the last probes and the answer to come back. */
export const SCAN_GRACE_MS = 5000;

/** `signal` stops the scan (the gateway is shutting down): the worker is terminated and the promise rejects. */
export function runScanInWorker(input: ScanInput, signal?: AbortSignal): Promise<RawScan> {
  // Under tsx (tests) the sources are .ts files and the worker must load tsx too.
  const fromSource = import.meta.url.endsWith('.ts');
  const filename = fileURLToPath(new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url));
  const worker = new Worker(filename, { workerData: input, execArgv: fromSource ? ['--import', 'tsx'] : [] });
  return new Promise<RawScan>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new WardenError('WARDEN_ERR_DISCOVERY_SCAN_TIMEOUT', 'the discovery scan did not finish in time (ai_discovery.timeout_ms)', { statusCode: 504 }));
    }, Math.max(0, input.deadline + SCAN_GRACE_MS - Date.now()));
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      void worker.terminate();
      reject(new WardenError('WARDEN_ERR_DISCOVERY_SCAN_FAILED', 'the discovery scan was stopped: the gateway is closing', { statusCode: 503 }));
    }, { once: true });
    worker.once('message', (message: { ok: true; result: RawScan } | { ok: false; message: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (message.ok) resolve(message.result);
      else reject(new WardenError('WARDEN_ERR_DISCOVERY_SCAN_FAILED', `the discovery scan failed: ${message.message}`, { statusCode: 500 }));
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      reject(new WardenError('WARDEN_ERR_DISCOVERY_SCAN_FAILED', `the discovery scan failed: ${err.message}`, { statusCode: 500 }));
    });
  });
}
