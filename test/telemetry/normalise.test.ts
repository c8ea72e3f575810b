// Each agent's OTLP events as Warden keeps them (normalise.ts with the maps in src/telemetry/otlp/agents/), and the
// store's retention: records past `telemetry.retention_days` are deleted, newer ones stay.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { normalise } from '../../src/telemetry/otlp/normalise.js';
import type { AgentEventRecord } from '../../src/telemetry/records.js';
import { TelemetryStore } from '../../src/telemetry/store/store.js';

const value = (v: string | number | boolean) =>
  typeof v === 'string' ? { stringValue: v } : typeof v === 'boolean' ? { boolValue: v } : Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
const logs = (service: string, records: { body?: string; attrs: Record<string, string | number | boolean> }[]) => ({
  resourceLogs: [{
    resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
    scopeLogs: [{ logRecords: records.map((r) => ({
      ...(r.body ? { body: { stringValue: r.body } } : {}),
      attributes: Object.entries(r.attrs).map(([key, v]) => ({ key, value: value(v) })),
    })) }],
  }],
});
const events = (request: object, storePromptText = false) =>
  normalise('logs', request as Record<string, unknown>, { storePromptText }).records as AgentEventRecord[];

describe('per-agent OTLP mapping', () => {
  it('Codex: conversation.id is the session, call_id the tool call, response.completed carries the tokens', () => {
    const [decision, result, sse, prompt] = events(logs('codex_cli_rs', [
      { attrs: { 'event.name': 'codex.tool_decision', 'conversation.id': 'c1', tool_name: 'shell', call_id: 'call_1', decision: 'approved' } },
      { attrs: { 'event.name': 'codex.tool_result', 'conversation.id': 'c1', tool_name: 'shell', call_id: 'call_1', success: 'true', duration_ms: '7', output: 'SECRET-OUTPUT', arguments: '{"command":["cat","x"]}' } },
      { attrs: { 'event.name': 'codex.sse_event', 'conversation.id': 'c1', 'event.kind': 'response.completed', input_token_count: 100, output_token_count: 20, model: 'gpt-5' } },
      { attrs: { 'event.name': 'codex.user_prompt', 'conversation.id': 'c1', prompt_length: 5, prompt: 'hello' } },
    ]));
    assert.deepEqual([decision!.source, decision!.category, decision!.tool_invocation_id, decision!.decision], ['codex', 'tool_decision', 'call_1', 'approved']);
    assert.deepEqual([result!.category, result!.session_id, result!.success, result!.duration_ms], ['tool_result', 'c1', true, 7]);
    assert.ok(!JSON.stringify(result).includes('SECRET-OUTPUT'), 'tool output is content');
    assert.ok(!JSON.stringify(result).includes('"cat"'), 'tool arguments are content');
    assert.deepEqual([sse!.category, sse!.input_tokens, sse!.output_tokens, sse!.model], ['api_request', 100, 20, 'gpt-5']);
    assert.deepEqual([prompt!.category, prompt!.prompt_length, prompt!.prompt_text], ['prompt', 5, undefined]);
    assert.equal(prompt!.prompt_sha256, '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
  });

  it('Gemini CLI: tool_call is a tool result named by function_name; api_response carries tokens', () => {
    const [tool, api] = events(logs('gemini-cli', [
      { body: 'gemini_cli.tool_call', attrs: { 'session.id': 'g1', function_name: 'run_shell_command', function_args: '{"command":"cat ARG-SECRET"}', success: true, decision: 'accept', duration_ms: 3, prompt_id: 'p9' } },
      { body: 'gemini_cli.api_response', attrs: { 'session.id': 'g1', model: 'gemini-2.5-pro', input_token_count: 9, output_token_count: 4, duration_ms: 900 } },
    ]));
    assert.deepEqual([tool!.source, tool!.category, tool!.tool_name, tool!.success, tool!.prompt_id], ['geminicli', 'tool_result', 'run_shell_command', true, 'p9']);
    assert.ok(!JSON.stringify(tool).includes('ARG-SECRET'), 'function arguments are content');
    assert.deepEqual([api!.category, api!.model, api!.input_tokens, api!.duration_ms], ['api_request', 'gemini-2.5-pro', 9, 900]);
  });

  it('Claude Code: the bare event.name and the prefixed body name the same event; prompt text kept only when configured', () => {
    const request = logs('claude-code', [{ attrs: { 'event.name': 'user_prompt', 'session.id': 's1', prompt: 'do it' } }]);
    const [kept] = events(request, true);
    assert.deepEqual([kept!.event_name, kept!.category, kept!.prompt_text, kept!.prompt_length], ['claude_code.user_prompt', 'prompt', 'do it', 5]);
    assert.equal(events(request, false)[0]!.prompt_text, undefined);
  });

  it('keeps an unknown agent\'s event as other', () => {
    const [other] = events(logs('my-tool', [{ body: 'hello', attrs: { 'session.id': 'x' } }]));
    assert.deepEqual([other!.source, other!.category, other!.event_name, other!.session_id], ['unknown', 'other', 'hello', 'x']);
  });
});

describe('telemetry retention', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warden-telemetry-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('deletes records received before the cut-off and keeps the rest', () => {
    const store = new TelemetryStore(join(dir, 'telemetry.db'));
    try {
      const [event] = events(logs('claude-code', [{ body: 'claude_code.tool_result', attrs: { 'session.id': 'r1' } }]));
      const old = { ...event!, id: 'old', received_at: '2020-01-01T00:00:00.000Z' };
      store.insert([old, event!]);
      store.startRetention(30);
      const left = store.db.prepare('SELECT id FROM agent_events').all() as { id: string }[];
      assert.deepEqual(left.map((r) => r.id), [event!.id]);
    } finally {
      store.close();
    }
  });
});
