// HTTP load with autocannon on loopback, bounded in time.
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in the whole run. */
  total: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  seconds?: number;
  connections?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    duration: options.seconds ?? 5,
    connections: options.connections ?? 10,
  });
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Warm up a target briefly so JIT and connection setup do not count against it. */
export async function warmUp(options: LoadOptions): Promise<void> {
  await load({ ...options, seconds: 1 });
}
