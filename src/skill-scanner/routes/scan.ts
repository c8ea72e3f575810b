// POST /scan: one local skill folder, scanned in the worker pool.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ScannerContext } from '../context.js';
import { ErrorBody, ScanRequest, ScanResultSchema } from '../schemas.js';

export const errorAnswers = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 422: ErrorBody, 500: ErrorBody };

export function scanRoutes(fastify: FastifyInstance, ctx: ScannerContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/scan', { schema: { summary: 'Scan a local skill folder', body: ScanRequest, response: { 200: ScanResultSchema, ...errorAnswers } } }, async (request, reply) => {
    const { skill_directory: directory, ...options } = request.body;
    const outcome = await ctx.pool.run({ directory, options, env: ctx.env, roots: ctx.roots });
    if (!outcome.ok) return reply.code(outcome.status).send({ detail: outcome.detail });
    return outcome.result;
  });
}
