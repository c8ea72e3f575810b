// Per-IP token bucket for the routes that declare `config.perIpLimit` (the hook and inspect routes; spec
// "Limits": 20 requests/s, burst 40, loopback exempt). Hand-written because @fastify/rate-limit counts fixed
// windows and has no burst on top of a rate.
import type { FastifyInstance } from 'fastify';
import { isLoopbackAddress } from '../../config/bind.js';
import { WardenError } from '../../errors.js';
import '../../util/route-config.js';

interface Bucket {
  tokens: number;
  updated: number;
}

export interface LimiterOptions {
  ratePerSecond: number;
  burst: number;
  now?: () => number;
}

export function installPerIpLimiter(app: FastifyInstance, { ratePerSecond, burst, now = Date.now }: LimiterOptions): void {
  const buckets = new Map<string, Bucket>();
  let lastSweep = now();
  app.addHook('onRequest', (request, reply, done) => {
    const ip = request.ip;
    if (request.routeOptions.config.perIpLimit !== true || isLoopbackAddress(ip)) return done();
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
      return done(new WardenError('WARDEN_ERR_REQUEST_RATE_LIMITED', 'rate limit exceeded', { statusCode: 429 }));
    }
    bucket.tokens -= 1;
    done();
  });
}
