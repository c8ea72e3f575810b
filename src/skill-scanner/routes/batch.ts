// POST /scan-batch starts a background scan of every skill under a folder; GET /scan-batch/{scan_id} polls it.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { confinePath, PathRejected } from '../../scanners/paths.js';
import { findSkillDirectories } from '../../scanners/scan.js';
import type { ScanOptions } from '../../scanners/types.js';
import type { Batch, BatchItem } from '../batches.js';
import type { ScannerContext } from '../context.js';
import { BatchRequest, BatchStarted, BatchStatusBody, ErrorBody } from '../schemas.js';

async function runBatch(ctx: ScannerContext, batch: Batch, directory: string, recursive: boolean, options: Partial<ScanOptions>): Promise<void> {
  batch.status = 'running';
  try {
    const skills = findSkillDirectories(directory, recursive);
    batch.total = skills.length;
    const items: BatchItem[] = await Promise.all(skills.map(async (skill) => {
      const outcome = await ctx.pool.run({ directory: skill, options, env: ctx.env, roots: ctx.roots });
      batch.done++;
      return outcome.ok ? { skill_directory: skill, result: outcome.result } : { skill_directory: skill, error: { status: outcome.status, detail: outcome.detail } };
    }));
    batch.results = items;
    batch.summary = {
      safe: items.filter((i) => i.result?.is_safe).length,
      unsafe: items.filter((i) => i.result && !i.result.is_safe).length,
      errors: items.filter((i) => i.error).length,
    };
    batch.status = 'completed';
  } catch (err) {
    batch.status = 'failed';
    batch.error = (err as Error).message;
  }
  batch.finished_at = new Date().toISOString();
}

export function batchRoutes(fastify: FastifyInstance, ctx: ScannerContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/scan-batch', {
    schema: { summary: 'Scan every skill under a folder in the background', body: BatchRequest, response: { 202: BatchStarted, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody } },
  }, async (request, reply) => {
    const { skills_directory: requested, recursive, ...options } = request.body;
    let directory: string;
    try {
      directory = confinePath(requested, ctx.roots, 'directory');
    } catch (err) {
      if (err instanceof PathRejected) return reply.code(err.statusCode).send({ detail: err.message });
      throw err;
    }
    const batch = ctx.batches.create(directory);
    // Started after the answer (which says `pending`); the caller polls GET /scan-batch/{scan_id}.
    setImmediate(() => void runBatch(ctx, batch, directory, recursive ?? false, options));
    return reply.code(202).send({ scan_id: batch.scan_id, status: batch.status });
  });

  app.get('/scan-batch/:scan_id', {
    schema: { summary: 'Status of a batch scan (results once completed)', params: Type.Object({ scan_id: Type.String({ maxLength: 64 }) }), response: { 200: BatchStatusBody, 404: ErrorBody } },
  }, async (request, reply) => {
    const batch = ctx.batches.get(request.params.scan_id);
    if (!batch) return reply.code(404).send({ detail: 'unknown or expired scan_id' });
    return batch;
  });
}
