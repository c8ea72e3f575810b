// A discovery scan in a worker thread: walking folders, reading /proc and manifests is synchronous file work
// that must not hold up the gateway's event loop. Input and result are plain data; an error comes back as its
// message, since error classes do not survive the trip between threads.
import { parentPort, workerData } from 'node:worker_threads';
import { scanHost, type ScanInput } from './scan.js';

try {
  parentPort!.postMessage({ ok: true, result: await scanHost(workerData as ScanInput) });
} catch (err) {
  parentPort!.postMessage({ ok: false, message: (err as Error).message });
}
