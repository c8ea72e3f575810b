// The sidecar's scanning routes (spec document 1, "Scanning, egress records, assets"): scan a local skill or
// plugin folder, an MCP server (URL) or the MCP servers an agent configuration defines, run the code scanner
// over a path, persist a scanner result, and package a skill as tar.gz. Skill scans run in a small worker pool,
// created on first use, so hook traffic is never stuck behind a scan; MCP scans wait on the network, not the CPU,
// and run on the event loop.
import { basename, join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { create as createTar } from 'tar';
import Type from 'typebox';
import { oneOf } from '../../config/schema.js';
import { WardenError } from '../../errors.js';
import { AGENT_MCP_CONFIGS } from '../../scanners/mcp/definitions.js';
import { scanMcpServers } from '../../scanners/mcp/scan.js';
import { definitionsOf, isUrlTarget } from '../../scanners/mcp/targets.js';
import { ToolHashStore } from '../../scanners/mcp/tool-hashes.js';
import { scanPlugin } from '../../scanners/plugin/scan.js';
import { AGENT_SKILL_FOLDERS, confinePath, envRoots, expandHome, homeOf, PathRejected, rootForms, rootsOf } from '../../scanners/paths.js';
import type { ScanOptions } from '../../scanners/types.js';
import { ScanPool } from '../../scanners/pool/pool.js';
import { ScanFlags } from '../../scanners/options.js';
import type { GatewayContext } from '../context.js';
import { redactCallerData } from '../caller-data.js';
import { ErrorBody, OpenObject, ScanSummary, StatusOk } from './answers.js';

const Target = Type.String({ minLength: 1, maxLength: 4096, description: 'local path' });
const ScanBody = Type.Object({ target: Target, ...ScanFlags }, { additionalProperties: false });
const McpBody = Type.Object(
  {
    target: Type.String({ minLength: 1, maxLength: 4096, description: 'an http(s) URL of a remote MCP server, or an absolute path: an agent\'s MCP configuration file or a project folder' }),
    use_osv: ScanFlags.use_osv,
  },
  { additionalProperties: false },
);
const CodeBody = Type.Object({ path: Target, policy: ScanFlags.policy }, { additionalProperties: false });
const ResultFields = {
  is_safe: Type.Boolean(),
  max_severity: Type.String({ maxLength: 16 }),
  findings_count: Type.Optional(Type.Integer({ minimum: 0 })),
  scan_id: Type.Optional(Type.String({ maxLength: 64 })),
  target_type: Type.Optional(oneOf(['skill', 'plugin', 'mcp', 'code'] as const)),
};
const ResultName = Type.String({ minLength: 1, maxLength: 256 });
// Any scanner's result: a skill or code result names its skill_name, a plugin result its plugin_name, an MCP
// result its target (URL or configuration path).
const ResultBody = Type.Union([
  Type.Object({ ...ResultFields, skill_name: ResultName }, { additionalProperties: true }),
  Type.Object({ ...ResultFields, plugin_name: ResultName }, { additionalProperties: true }),
  Type.Object({ ...ResultFields, target: Type.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: true }),
]);
const FetchBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\0]+$' }), kind: Type.Optional(oneOf(['skill', 'plugin'] as const)) },
  { additionalProperties: false },
);

const AUDIT_SEVERITIES = new Set(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']);

const SkillScanAnswer = OpenObject({ ...ScanSummary, skill_name: Type.String(), skill_path: Type.String() }, 'a skill (or source tree) scan result (docs/skill-scanner.md)');
const PluginScanAnswer = OpenObject({ ...ScanSummary, plugin_name: Type.String(), plugin_path: Type.String() }, 'a plugin scan result (docs/scanners.md)');
const McpScanAnswer = OpenObject({ ...ScanSummary, servers: Type.Array(Type.Unknown()), unscannable: Type.Array(Type.Unknown()) }, 'an MCP scan result (docs/scanners.md)');
const scanErrors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export function scanRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  let pool: ScanPool | undefined;
  const scanner = () => (pool ??= new ScanPool(2));
  // Tool definition hashes of the MCP servers scanned (rug pulls), opened on first use.
  let toolHashes: ToolHashStore | undefined;
  fastify.addHook('onClose', async () => {
    toolHashes?.close();
    await pool?.close();
  });

  // Where scans may read, from the settings in force (a reload changes them): the configured skill, plugin and
  // allowed roots, the user's agent skill folders and SKILL_SCANNER_ALLOWED_ROOTS.
  const scanRoots = () => {
    const { skill_roots, plugin_roots, allowed_roots } = ctx.settings.config.scanner;
    const folders = [...skill_roots, ...plugin_roots, ...allowed_roots, ...AGENT_SKILL_FOLDERS, ...(envRoots(ctx.settings.env) ?? [])];
    return rootsOf(folders, homeOf(ctx.settings.env));
  };

  // An MCP scan may also read the agents' own MCP configuration files.
  const mcpRoots = () => [...scanRoots(), ...rootsOf(AGENT_MCP_CONFIGS.map((entry) => entry.path), homeOf(ctx.settings.env))];

  // A skill scan in the pool; `source`: a source tree (code scanner, a plugin's files), not a skill.
  const runPooled = async (target: string, options: Partial<ScanOptions>, source = false) => {
    const outcome = await scanner().run({ directory: target, options, env: ctx.settings.env, roots: scanRoots(), source });
    if (!outcome.ok) throw new WardenError(outcome.code, outcome.detail, { statusCode: outcome.status, expose: outcome.status < 500 });
    return outcome.result;
  };
  const openToolHashes = () => (toolHashes ??= new ToolHashStore(ctx.settings.paths.mcpDb));

  const scan = async (target: string, options: Partial<ScanOptions>, source = false) => {
    const result = await runPooled(target, options, source);
    await ctx.audit.append({
      action: `scan-${result.is_safe ? 'safe' : 'unsafe'}`, target: result.skill_name, severity: result.max_severity === 'NONE' ? 'INFO' : result.max_severity,
      details: `${result.findings_count} findings`, structured: { scan_id: result.scan_id, path: result.skill_path, max_severity: result.max_severity },
    });
    return result;
  };

  app.post('/v1/skill/scan', { schema: { body: ScanBody, response: { 200: SkillScanAnswer, ...scanErrors } } }, async (request) => {
    const { target, ...options } = request.body;
    return scan(target, options);
  });

  // A plugin (manifest, commands, agents, skills, hooks, MCP servers): its files as a source tree, each bundled
  // skill, each hook command and each MCP server, by the scanner that fits it.
  app.post('/v1/plugin/scan', { schema: { body: ScanBody, response: { 200: PluginScanAnswer, ...scanErrors } } }, async (request) => {
    const { target, ...options } = request.body;
    const root = confinePath(target, scanRoots(), 'directory');
    const result = await scanPlugin(root, {
      scanFolder: (directory, source) => runPooled(directory, { ...options, lenient: true }, source),
      inspector: ctx.inspector,
      mcp: { env: ctx.settings.env, use_osv: options.use_osv, hashes: openToolHashes() },
    });
    await ctx.audit.append({
      action: `scan-${result.is_safe ? 'safe' : 'unsafe'}`, target: result.plugin_name, severity: result.max_severity === 'NONE' ? 'INFO' : result.max_severity,
      details: `${result.findings_count} findings`, structured: { scan_id: result.scan_id, target_type: 'plugin', path: result.plugin_path, max_severity: result.max_severity },
    });
    return result;
  });

  // The code scanner: secrets, dangerous calls and the behavioral analyzer's data flows over the source files of
  // any folder; a source tree has no SKILL.md, so no skill-manifest findings.
  app.post('/api/v1/scan/code', { schema: { body: CodeBody, response: { 200: SkillScanAnswer, ...scanErrors } } }, async (request) =>
    scan(request.body.path, { lenient: true, use_behavioral: true, policy: request.body.policy ?? 'balanced' }, true),
  );

  app.post('/v1/mcp/scan', { schema: { body: McpBody, response: { 200: McpScanAnswer, ...scanErrors } } }, async (request) => {
    const { target, use_osv } = request.body;
    const roots = mcpRoots();
    const definitions = definitionsOf(target, (path) => confinePath(path, roots));
    const result = await scanMcpServers(definitions, target, {
      inspector: ctx.inspector, env: ctx.settings.env, use_osv, hashes: openToolHashes(),
      unreachableIsError: isUrlTarget(target),
    });
    await ctx.audit.append({
      action: `scan-${result.is_safe ? 'safe' : 'unsafe'}`, target: redactCallerData(ctx, target), severity: result.max_severity === 'NONE' ? 'INFO' : result.max_severity,
      details: `${result.findings_count} findings, ${result.servers.length} MCP servers`,
      structured: { scan_id: result.scan_id, target_type: 'mcp', max_severity: result.max_severity, unscannable: result.unscannable.map((u) => u.name) },
    });
    return result;
  });

  app.post('/scan/result', { schema: { body: ResultBody, response: { 200: StatusOk } } }, async (request) => {
    const result = request.body;
    const name = 'skill_name' in result ? result.skill_name : 'plugin_name' in result ? result.plugin_name : result.target;
    await ctx.audit.append({
      action: `scan-result-${result.is_safe ? 'safe' : 'unsafe'}`,
      target: redactCallerData(ctx, name),
      severity: AUDIT_SEVERITIES.has(result.max_severity) ? (result.max_severity as 'INFO') : 'INFO',
      details: result.findings_count === undefined ? undefined : `${result.findings_count} findings`,
      structured: redactCallerData(ctx, result),
    });
    return { status: 'ok' as const };
  });

  app.post('/v1/skill/fetch', {
    schema: {
      body: FetchBody,
      produces: ['application/gzip'],
      // Typed `unknown`: the answer is the archive stream, which Fastify sends unserialised.
      response: { 200: Type.Unsafe<unknown>(Type.String({ format: 'binary', description: 'the folder as a .tar.gz (links stored as links)' })), 403: ErrorBody, 404: ErrorBody },
    },
  }, async (request, reply) => {
    const { name, kind = 'skill' } = request.body;
    const roots = (kind === 'plugin' ? ctx.settings.config.scanner.plugin_roots : ctx.settings.config.scanner.skill_roots).map((root) => expandHome(root, homeOf(ctx.settings.env)));
    let directory: string | undefined;
    for (const root of roots) {
      try {
        // Resolved (links included) and checked against the root: nothing outside it is ever packaged.
        directory = confinePath(resolve(root, name), rootForms(root));
        break;
      } catch (err) {
        if (!(err instanceof PathRejected)) throw err;
        if (err.statusCode === 403) throw new WardenError(err.code, `${name} resolves outside the configured ${kind} roots`, { statusCode: 403 });
      }
    }
    if (!directory) throw new WardenError('WARDEN_ERR_SCAN_NOT_FOUND', `no ${kind} named ${name} under ${roots.join(', ')}`, { statusCode: 404 });
    reply.header('content-type', 'application/gzip').header('content-disposition', `attachment; filename="${basename(directory)}.tar.gz"`);
    // portable: no owner names or ids in the archive; symlinks are stored as links, never followed.
    return reply.send(createTar({ gzip: true, cwd: join(directory, '..'), portable: true, follow: false }, [basename(directory)]));
  });
}
