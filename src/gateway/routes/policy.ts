// The sidecar's policy routes (spec document 1 "Policy"): evaluate the admission decision and the firewall,
// audit and skill_actions sub-policies, and reload the operator's Rego modules. Thin: the schemas refuse any
// other domain or input shape (400), the policy service (src/policy/service.ts) decides.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { oneOf, SEVERITIES } from '../../config/schema.js';
import { enforcementLists } from '../../policy/lists.js';
import { ADMISSION_TYPES } from '../../policy/service.js';
import type { GatewayContext } from '../context.js';
import { acceptNoBody, NO_BODY_LIMIT } from '../plugins/no-body.js';

const Name = Type.String({ minLength: 1, maxLength: 512 });
const Severity = oneOf([...SEVERITIES, 'NONE'] as const);
const strict = { additionalProperties: false } as const;

const AdmissionInput = Type.Object(
  {
    target_type: oneOf(ADMISSION_TYPES),
    target_name: Name,
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    // A scanner's whole result may be passed; the shipped module reads max_severity, unscannable and reason.
    scan_result: Type.Optional(Type.Object(
      { max_severity: Severity, unscannable: Type.Optional(Type.Boolean()), reason: Type.Optional(Type.String({ maxLength: 4096 })) },
      { additionalProperties: true },
    )),
  },
  strict,
);
const Triple = Type.Object({ install: Type.String(), file: Type.String(), runtime: Type.String() });
const AdmissionOutput = Type.Object({
  verdict: Type.String(), reason: Type.String(), actions: Triple, matched_list: Type.Union([Type.String(), Type.Null()]), severity: Type.String(),
});

const FirewallInput = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 253 }),
    port: Type.Integer({ minimum: 0, maximum: 65535 }),
    protocol: Type.String({ minLength: 1, maxLength: 16 }),
    binary: Type.Optional(Type.String({ maxLength: 4096 })),
    sandbox: Type.Optional(Type.String({ maxLength: 256 })),
  },
  strict,
);
const FirewallOutput = Type.Object({ allow: Type.Boolean(), reason: Type.String(), matched_rule: Type.Union([Type.String(), Type.Null()]) });

const AuditInput = Type.Object(
  { event_type: Name, severity: Type.Optional(Severity), fields: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 1000 })) },
  strict,
);
const AuditOutput = Type.Object({ keep: Type.Boolean(), retention_days: Type.Number(), redact: Type.Array(Type.String()) });

const SkillActionsInput = Type.Object({ severity: oneOf(SEVERITIES) }, strict);
const SkillActionsOutput = Type.Object({ severity: Type.String(), actions: Triple });

const answer = <T extends ReturnType<typeof Type.Object>>(data: T) => ({ 200: Type.Object({ ok: Type.Literal(true), data }) });

export function policyRoutes(fastify: FastifyInstance, ctx: GatewayContext): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // Admission sees the enforcement lists as they are now: /enforce/* changes apply to ctx.settings at once.
  app.post('/policy/evaluate', {
    schema: { body: Type.Object({ domain: Type.Optional(Type.Literal('admission')), input: AdmissionInput }, strict), response: answer(AdmissionOutput) },
  }, async (request) => ({ ok: true as const, data: ctx.policy.evaluate('admission', request.body.input, enforcementLists(ctx.settings.config)) }));

  app.post('/policy/evaluate/firewall', {
    schema: { body: Type.Object({ input: FirewallInput }, strict), response: answer(FirewallOutput) },
  }, async (request) => ({ ok: true as const, data: ctx.policy.evaluate('firewall', request.body.input) }));

  app.post('/policy/evaluate/audit', {
    schema: { body: Type.Object({ input: AuditInput }, strict), response: answer(AuditOutput) },
  }, async (request) => ({ ok: true as const, data: ctx.policy.evaluate('audit', request.body.input) }));

  app.post('/policy/evaluate/skill-actions', {
    schema: { body: Type.Object({ input: SkillActionsInput }, strict), response: answer(SkillActionsOutput) },
  }, async (request) => ({ ok: true as const, data: ctx.policy.evaluate('skill_actions', request.body.input) }));

  // Reload takes no body; its own instance accepts an empty one.
  app.register(async (instance) => {
    acceptNoBody(instance);
    instance.post('/policy/reload', {
      bodyLimit: NO_BODY_LIMIT,
      schema: { response: { 200: Type.Object({ status: Type.Literal('reloaded'), policy_dir: Type.Union([Type.String(), Type.Null()]) }) } },
    }, async (request) => {
      const { policy_dir } = ctx.policy.reload();
      request.log.info({ policy_dir }, 'policy reloaded');
      return { status: 'reloaded' as const, policy_dir };
    });
  });
}
