// Per-IP token bucket for the hook and inspect routes (spec "Limits": 20 requests/s, burst 40, loopback
// exempt). Hand-written because @fastify/rate-limit counts fixed windows and has no burst on top of a rate.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopbackAddress } from '../../config/bind.js';

interface Bucket {
  tokens: number;
  updated: number;
}

export interface LimiterOptions {
  ratePerSecond: number;
  burst: number;
  /** Which requests the budget applies to. */
  applies: (request: FastifyRequest) => boolean;
  now?: () => number;
}

export function installPerIpLimiter(app: FastifyInstance, { ratePerSecond, burst, applies, now = Date.now }: LimiterOptions): void {
  const buckets = new Map<string, Bucket>();
  let lastSweep = now();
  app.addHook('onRequest', (request, reply, done) => {
    const ip = request.ip;
    if (!applies(request) || isLoopbackAddress(ip)) return done();
    const t = now();
    if (t - lastSweep > 60_000) {
      // Full buckets carry no state worth keeping; dropping them bounds memory to recently active clients.
      for (const [key, b] of buckets) if (b.tokens + ((t - b.updated) / 1000) * ratePerSecond >= burst) buckets.delete(key);
      lastSweep = t;
    }
    const bucket = buckets.get(ip) ?? { tokens: burst, updated: t };
    bucket.tokens = Math.min(burst, bucket.tokens + ((t - bucket.updated) / 1000) * ratePerSecond);
    bucket.updated = t;
    buckets.set(ip, bucket);
    if (bucket.tokens < 1) {
      reply.header('retry-after', String(Math.ceil((1 - bucket.tokens) / ratePerSecond)));
      return reply.code(429).send({ error: 'rate limit exceeded' });
    }
    bucket.tokens -= 1;
    done();
  });
}
