// The AI usage discovery routes (spec document 1, "AI usage discovery"): the snapshot, an on-demand scan, the
// reports of the on-host scanner and of external tools, the components with their locations and history, and
// the confidence policy with its dry-run validation. Thin: discovery/service.ts does the work; a scan runs in a
// worker thread, so these routes never hold up hook traffic. A scan or report is answered once it is recorded
// in discovery.db and its audit row committed; a posted report is stored with recognised secrets redacted.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { ActivePolicyAnswer, ComponentHistory, ComponentLocations, ComponentSummary, PolicyValidation, Snapshot } from '../../discovery/answers.js';
import { DISCOVERY_LIMITS } from '../../discovery/limits.js';
import { DiscoveryService } from '../../discovery/service.js';
import { PostedReport, ScanReport } from '../../discovery/types.js';
import { WardenError } from '../../errors.js';
import { homeOf } from '../../scanners/paths.js';
import { callerClient, redactCallerData } from '../caller-data.js';
import type { GatewayContext } from '../context.js';
import { acceptNoBody, NO_BODY_LIMIT } from '../plugins/no-body.js';
import { ErrorBody } from './answers.js';

const PREFIX = '/api/v1/ai-usage';
const Ecosystem = Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9][a-z0-9-]*$', description: '`npm`, `pypi`, `go`, `cargo`, `ide-extension` or `mcp`.' });
const ComponentParams = Type.Object(
  { ecosystem: Ecosystem, name: Type.String({ minLength: 1, maxLength: 512, description: 'Component name, URL-encoded (`%40scope%2Fname`).' }) },
  { additionalProperties: false },
);
const ComponentsQuery = Type.Object({ ecosystem: Type.Optional(Ecosystem) }, { additionalProperties: false });
const HistoryQuery = Type.Object(
  { limit: Type.Integer({ minimum: 1, maximum: DISCOVERY_LIMITS.scansKept, default: 50, description: 'Scans to list, newest first.' }) },
  { additionalProperties: false },
);
const ValidateBody = Type.Object(
  { content: Type.String({ minLength: 1, maxLength: DISCOVERY_LIMITS.packBytes, description: 'The candidate policy file\'s text (YAML or JSON).' }) },
  { additionalProperties: false },
);

export function aiUsageRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const service = new DiscoveryService({
    settings: ctx.settings.config.ai_discovery, wardenHome: ctx.settings.paths.home, home: homeOf(ctx.settings.env), env: ctx.settings.env,
  });
  service.startPeriodic((err) => fastify.log.warn({ err: (err as Error).message }, 'periodic AI usage discovery scan failed'));
  fastify.addHook('onClose', () => service.close());

  /** One audit row per recorded scan or report, with the counts only. */
  const audited = async (report: ScanReport, actor: string | undefined) => {
    await ctx.audit.append({
      action: `ai-usage-${report.source}`, target: report.host, severity: 'INFO', actor,
      details: `${report.signals.length} signals, ${report.components.length} components`,
      structured: { scan_id: report.scan_id, truncated: report.truncated, packs_refused: report.packs_refused.map((p) => p.path) },
    });
    return report;
  };

  app.get(PREFIX, { schema: { response: { 200: Snapshot } } }, () => service.snapshot());

  // Answered when the scan is done: it is bounded by ai_discovery.timeout_ms, and a second request joins it. It
  // takes no body; its own instance accepts an empty one.
  app.register(async (instance) => {
    acceptNoBody(instance);
    instance.post(`${PREFIX}/scan`, { bodyLimit: NO_BODY_LIMIT, schema: { response: { 200: ScanReport, 409: ErrorBody, 504: ErrorBody } } }, async (request) =>
      audited(await service.scan(), callerClient(request)),
    );
  });

  const reportOptions = { bodyLimit: DISCOVERY_LIMITS.reportBytes, schema: { body: PostedReport, response: { 200: ScanReport, 409: ErrorBody } } };
  // A report is caller text: secrets the rule pack recognises in it are stored redacted, as in the audit trail.
  app.post('/api/v1/agents/discovery', reportOptions, async (request) =>
    audited(service.ingest(redactCallerData(ctx, request.body), 'scanner'), callerClient(request)));
  app.post(`${PREFIX}/discovery`, reportOptions, async (request) =>
    audited(service.ingest(redactCallerData(ctx, request.body), 'external'), callerClient(request)));

  app.get(`${PREFIX}/components`, { schema: { querystring: ComponentsQuery, response: { 200: Type.Object({ components: Type.Array(ComponentSummary) }) } } }, (request) => {
    const { ecosystem } = request.query;
    return { components: service.components().filter((c) => ecosystem === undefined || c.ecosystem === ecosystem) };
  });

  const notSeen = (ecosystem: string, name: string) =>
    new WardenError('WARDEN_ERR_DISCOVERY_COMPONENT_UNKNOWN', `no scan has seen component ${ecosystem}/${name}`, { statusCode: 404 });

  app.get(`${PREFIX}/components/:ecosystem/:name/locations`, { schema: { params: ComponentParams, response: { 200: ComponentLocations, 404: ErrorBody } } }, (request) => {
    const { ecosystem, name } = request.params;
    const found = service.locations(ecosystem, name);
    if (!found) throw notSeen(ecosystem, name);
    return found;
  });

  app.get(
    `${PREFIX}/components/:ecosystem/:name/history`,
    { schema: { params: ComponentParams, querystring: HistoryQuery, response: { 200: ComponentHistory, 404: ErrorBody } } },
    (request) => {
      const { ecosystem, name } = request.params;
      const found = service.history(ecosystem, name, request.query.limit);
      if (!found) throw notSeen(ecosystem, name);
      return found;
    },
  );

  app.get(`${PREFIX}/confidence/policy`, { schema: { response: { 200: ActivePolicyAnswer } } }, () => service.policy());

  // A dry run: the answer says what is wrong with the candidate, or what it would score; nothing changes.
  app.post(`${PREFIX}/confidence/policy/validate`, { schema: { body: ValidateBody, response: { 200: PolicyValidation } } }, (request) =>
    service.validatePolicy(request.body.content),
  );
}
