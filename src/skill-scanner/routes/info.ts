// GET / (what this service is), /health and /analyzers (what each analyzer needs, and whether it can run here).
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { envIsSet, type EnvName } from '../../config/env.js';
import { ANALYZERS } from '../../scanners/analyzers/index.js';
import type { ScannerContext } from '../context.js';

/** Which analyzers need which environment variable to be built. */
const NEEDS_ENV: Record<string, EnvName> = { llm: 'SKILL_SCANNER_LLM_API_KEY', meta: 'SKILL_SCANNER_LLM_API_KEY', ai_guard: 'AI_GUARD_API_KEY' };

const AnalyzerInfo = Type.Object({
  name: Type.String(),
  description: Type.String(),
  requires: Type.String(),
  option: Type.String(),
  available: Type.Boolean(),
});

export function infoRoutes(app: FastifyInstance, ctx: ScannerContext): void {
  const analyzers = () =>
    ANALYZERS.map(({ analyzer, option }) => ({
      name: analyzer.name,
      description: analyzer.description,
      requires: analyzer.requires,
      option,
      available: NEEDS_ENV[analyzer.name] === undefined || envIsSet(ctx.env, NEEDS_ENV[analyzer.name]!),
    }));

  app.get('/', { schema: { summary: 'Service metadata and links' } }, async () => ({
    service: 'warden-skill-scanner',
    version: ctx.version,
    description: 'Scans agent skills (SKILL.md folders) for prompt injection, exfiltration, malware and other risks',
    links: { docs: '/docs', redoc: '/redoc', openapi: '/openapi.json', health: '/health', analyzers: '/analyzers' },
    endpoints: ['POST /scan', 'POST /scan-upload', 'POST /scan-batch', 'GET /scan-batch/{scan_id}', 'GET /analyzers', 'GET /health'],
  }));

  app.get('/health', { schema: { summary: 'Server status and available analyzers' } }, async () => ({
    status: 'healthy',
    version: ctx.version,
    workers: ctx.pool.size,
    analyzers_available: analyzers().filter((a) => a.available).map((a) => a.name),
  }));

  app.get('/analyzers', { schema: { summary: 'All analyzers and what they need to run', response: { 200: Type.Object({ analyzers: Type.Array(AnalyzerInfo) }) } } }, async () => ({
    analyzers: analyzers(),
  }));
}
