// The request and answer schemas of the sandbox API (spec "Sandbox resources", "Sandbox API"): every object strict, so
// an unknown field is a 400 invalid_request; secrets have no length in any answer schema because none is answered.
import Type from 'typebox';
import { OpenObject } from './answers.js';

const strict = { additionalProperties: false } as const;
const Text = (max: number) => Type.String({ maxLength: max });
const Path = Type.String({ minLength: 1, maxLength: 4096 });
const VarName = Type.String({ minLength: 1, maxLength: 128 });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });

export const RunOptionFields = {
  pack: Type.Optional(Text(128)),
  profile: Type.Optional(Text(128)),
  copy: Type.Optional(Type.Boolean()),
  safe: Type.Optional(Type.Boolean()),
  yolo: Type.Optional(Type.Boolean()),
  unmask: Type.Optional(Type.Array(Path, { maxItems: 64 })),
};

export const CreateBody = Type.Object(
  {
    harness: Type.String({ minLength: 1, maxLength: 64 }),
    project: Path,
    name: Type.Optional(Text(64)),
    ...RunOptionFields,
    context: Type.Optional(Type.Array(Path, { maxItems: 64 })),
    host_ports: Type.Optional(Type.Array(Port, { maxItems: 64 })),
    no_mcp: Type.Optional(Type.Boolean()),
    learn: Type.Optional(Type.Boolean()),
    cpu: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1024 })),
    memory: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,6}[mMgG]$' })),
    no_snapshot: Type.Optional(Type.Boolean()),
    no_build: Type.Optional(Type.Boolean()),
    llm: Type.Optional(Type.Object(
      {
        profile: Type.Optional(Text(128)),
        credentials: Type.Optional(Type.Record(VarName, Text(16384))),
        bedrock_region: Type.Optional(Text(64)),
      },
      strict,
    )),
    credentials: Type.Optional(Type.Array(
      Type.Object({ name: VarName, value: Text(16384), host: Type.String({ minLength: 1, maxLength: 253 }), port: Type.Optional(Port) }, strict),
      { maxItems: 64 },
    )),
    env: Type.Optional(Type.Record(VarName, Text(16384))),
  },
  strict,
);

export const DeleteBody = Type.Object({ keep_snapshot: Type.Optional(Type.Boolean()) }, strict);
export const StopBody = Type.Object({}, strict);
export const StartBody = Type.Object({ no_snapshot: Type.Optional(Type.Boolean()), new_snapshot: Type.Optional(Type.Boolean()) }, strict);
export const UndoBody = Type.Object(
  { preview: Type.Optional(Type.Boolean()), keep_refs: Type.Optional(Type.Boolean()), stop: Type.Optional(Type.Boolean()), restart: Type.Optional(Type.Boolean()) },
  strict,
);
export const ReviewBody = Type.Object({ diff: Type.Optional(Type.Boolean()) }, strict);
export const AcceptBody = Type.Object(
  { snapshot_created_at: Type.Optional(Type.String({ format: 'date-time' })), session: Type.Optional(Type.Integer({ minimum: 0 })) },
  strict,
);
export const WorkspaceBody = Type.Object(
  {
    kind: Type.Optional(Type.Union([Type.Literal('upload'), Type.Literal('pull')])),
    source: Type.Optional(Path),
    files: Type.Optional(Type.Integer({ minimum: 0 })),
    bytes: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  strict,
);
export const NameParams = Type.Object({ name: Type.String({ maxLength: 256 }) });
export const LogsQuery = Type.Object({ lines: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })) }, strict);
export const ExplainQuery = Type.Object(
  {
    sandbox: Type.Optional(Text(64)),
    harness: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    project: Type.Optional(Path),
    ...RunOptionFields,
    run: Type.Optional(Type.Boolean()),
    run_env: Type.Optional(Type.Array(Text(16384), { maxItems: 256 })),
    run_env_withheld: Type.Optional(Type.Array(VarName, { maxItems: 256 })),
    run_credential: Type.Optional(Type.Array(VarName, { maxItems: 64 })),
    run_llm_profile: Type.Optional(Text(128)),
    run_bedrock_region: Type.Optional(Text(64)),
  },
  strict,
);

// Answers, for /openapi.json: each described by its main fields and open (answers.ts), so serialisation never
// drops a field the spec's resources carry (docs/sandbox.md has them all).
const Sandbox = OpenObject({ name: Type.String(), phase: Type.String() }, 'A Sandbox (spec document 1, "Sandbox resources").');
export const SandboxAnswers = {
  status: { 200: OpenObject({ enabled: Type.Boolean(), available: Type.Boolean() }, 'Sandbox manager status.') },
  list: { 200: Type.Object({ sandboxes: Type.Array(Sandbox) }) },
  created: { 201: Sandbox },
  sandbox: { 200: Sandbox },
  deleted: { 200: OpenObject({ name: Type.String(), deleted: Type.Boolean() }, 'What a delete removed, and warnings.') },
  undo: { 200: OpenObject({}, 'The workspace result, whether the sandbox was stopped and restarted, summary and review.') },
  review: { 200: OpenObject({ summary: Type.String(), risk_line: Type.String() }, 'Added, modified and deleted files, and the diff when asked.') },
  logs: { 200: OpenObject({ name: Type.String(), state: Type.String() }, 'The kept RunLog.') },
  workspace: { 200: Type.Object({ status: Type.Literal('recorded') }) },
  explain: { 200: OpenObject({}, 'Explain: resolved pack, profile, settings and their sources.') },
};

/** Answers of the step-11 routes (approvals, unblock, activity), open like the others. */
const Approval = OpenObject({ id: Type.String(), sandbox: Type.String(), status: Type.String() }, 'An Approval (spec "Sandbox resources").');
export const ApprovalAnswers = {
  list: { 200: Type.Object({ approvals: Type.Array(Approval) }) },
  decided: { 200: OpenObject({ approval: Approval, persisted: Type.Boolean(), message: Type.String() }, 'The approval after the decision.') },
  unblocked: {
    200: OpenObject({ host: Type.String(), scope: Type.String(), persisted: Type.Boolean(), message: Type.String() }, 'What the unblock lifted.'),
  },
};
export const ActivityAnswer = {
  200: {
    description: '`{events}` after `since`; with `follow=true` or `Accept: text/event-stream` a server-sent event stream',
    content: {
      'application/json': { schema: Type.Unsafe<unknown>(Type.Object({ events: Type.Array(OpenObject({ seq: Type.Integer(), kind: Type.String() }, 'An ActivityEvent.')) })) },
      'text/event-stream': { schema: Type.Unsafe<unknown>(Type.String({ description: '`id: <seq>`, `event: activity`, `data: <ActivityEvent JSON>`; `: keepalive` comments' })) },
    },
  },
};
