// Body size limits (spec "Limits"). The ordinary limit is the sidecar's default (Fastify's `bodyLimit`
// option), so a route that declares nothing gets it; a route that needs another declares its own
// `bodyLimit` when it is registered (the values are in ../limits.ts). Fastify refuses an oversized body with
// 413 while reading it, before any handler runs.
import { SIDECAR_LIMITS } from '../limits.js';

export const ORDINARY_BODY_LIMIT = SIDECAR_LIMITS.ordinaryBodyBytes;
