// One proxied model call, end to end: pick the upstream, inspect the request, forward it with the provider's
// credential, inspect the answer (buffered, or event by event while it streams), and answer the agent in the
// provider's own format. Runs on the raw Node response (the route hijacks the reply) because a stream must
// be flushed event by event and cut mid-way. The call's audit row is committed before the agent gets the
// answer; a stream's outcome is only known at its end, so a stream first commits a `…-stream-open` row
// (the request's verdict, written while the upstream works) before its first byte, and its verdict row
// before its last.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { NewAuditEvent } from '../audit/store.js';
import { SEVERITY_RANK } from '../guardrail/thresholds.js';
import type { ProxyContext } from './context.js';
import { upstreamHeaders, providerCredential } from './credentials.js';
import { formatForPath } from './formats/index.js';
import type { ProviderFormat, RequestView } from './formats/types.js';
import { ndjsonFramer, sseFramer, type FramedEvent } from './framing.js';
import type { ProxyDecision } from './inspection.js';
import { StreamGuard } from './stream-guard.js';
import { PROXY_LIMITS } from './limits.js';
import { resolveTarget } from './target.js';
import { upstreamFailure } from './upstream.js';

export interface ProxiedCall {
  method: string;
  /** The incoming path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** POST /v1/chat/completions or /chat/completions: OpenAI format, llm.base_url when no target header. */
  chatRoute: boolean;
}

/** Events of one upstream read are inspected and sent in slices of about this many characters. */
const RELAY_SLICE_CHARS = 2048;
/** A stream's headers wait this long for its first events before they are sent on their own. */
const HEADERS_ALONE_AFTER_MS = 20;

/** Answers larger than this are not buffered for inspection (502): nothing uninspected is passed on. */
const MAX_BUFFERED_ANSWER = PROXY_LIMITS.maxBufferedAnswerBytes;

/** Upstream response headers not relayed: framing and hop-by-hop headers Node sets itself. */
const RESPONSE_HEADERS_DROPPED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

const streamContentType = (format: ProviderFormat) => (format.name === 'ollama' ? 'application/x-ndjson' : 'text/event-stream');

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, format: ProviderFormat, status: number, message: string): void {
  if (!res.headersSent) sendJson(res, status, format.errorBody(status, message));
  else res.destroy();
}

function isJson(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && /^application\/(?:[\w.+-]+\+)?json\b/i.test(type.trim());
}

/** What a block answers: the operator's `guardrail.block_message` (read live: PATCH /v1/guardrail/config), then the reason. */
const blockText = (ctx: ProxyContext) => (reason: string): string => {
  const message = ctx.config.guardrail.block_message;
  return message ? `${message}\n\n${reason}` : reason;
};

/** The answer the agent gets instead of the model's when the guardrail blocks. */
function sendBlock(ctx: ProxyContext, res: ServerResponse, format: ProviderFormat, view: RequestView, decision: ProxyDecision): void {
  const headers = { 'x-warden-blocked': 'true' };
  const text = blockText(ctx)(decision.verdict.reason);
  if (!view.stream) return sendJson(res, 200, format.blockResponse(text, view), headers);
  res.writeHead(200, { ...headers, 'content-type': streamContentType(format), 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  res.end(format.streamDecoder(view).blockTail(text));
}

export async function forward(ctx: ProxyContext, call: ProxiedCall, res: ServerResponse): Promise<void> {
  const began = performance.now();
  const path = call.url.split('?')[0]!;
  const format = formatForPath(call.chatRoute ? '/v1/chat/completions' : path);
  const target = resolveTarget(ctx.registry, call.headers['x-warden-target-url'], call.url, call.chatRoute ? ctx.config.llm.base_url : undefined);
  if (!target.ok) {
    if (target.status === 403) {
      await ctx.audit.appendEgress({
        hostname: target.host ?? '', path, method: call.method, blocked: true, decision: 'block', branch: 'passthrough',
        reason: target.message, source: 'proxy',
      });
    }
    return sendError(res, format, target.status, target.message);
  }
  if (!isJson(call.headers)) return sendError(res, format, 415, 'the guardrail proxy inspects JSON bodies only (Content-Type: application/json)');
  let body: unknown;
  try {
    body = JSON.parse(call.body.toString('utf8'));
  } catch {
    return sendError(res, format, 400, 'request body is not valid JSON');
  }

  const view = format.request(body, path);
  const requestDecision = ctx.inspection.request(view);
  const record = (answer: ProxyDecision | undefined, extra: { status?: number; blocked?: boolean }) =>
    ctx.audit.append(auditEvent(call, target.provider.name, format, view, requestDecision, answer, extra));
  if (requestDecision.blocked) {
    await record(undefined, { blocked: true });
    return sendBlock(ctx, res, format, view, requestDecision);
  }

  // Added latency (metrics): Warden's time before the upstream request leaves, plus, for a buffered answer,
  // its time after the upstream's last byte. A stream's inspection runs between its chunks and is not counted.
  const sendingAfter = performance.now() - began;
  const observeAdded = (afterUpstream: number) => ctx.metrics?.observeProxyAddedLatency(routeName(call), (sendingAfter + afterUpstream) / 1000);
  const isOwnSecret = (value: string) => ctx.auth.isOwnSecret(value);
  const credential = providerCredential(call.headers, isOwnSecret);
  const abort = new AbortController();
  // The agent hung up: stop the upstream request too (no orphaned generation, no leaked socket).
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  // A stream's open row is committed while the upstream works, so its first byte need not wait on the disk.
  let opened = view.stream ? ctx.audit.append(streamOpenEvent(call, target.provider.name, format, view, requestDecision)) : undefined;
  let upstream: Dispatcher.ResponseData;
  try {
    upstream = await ctx.upstream.send({
      url: target.url, method: call.method, body: call.body, signal: abort.signal,
      headers: upstreamHeaders(call.headers, target.provider, credential, isOwnSecret),
    });
  } catch (err) {
    await opened;
    if (abort.signal.aborted) return;
    const failure = upstreamFailure(err);
    await record(undefined, { status: failure.statusCode });
    return sendError(res, format, failure.statusCode, failure.message);
  }

  const contentType = String(upstream.headers['content-type'] ?? '');
  const ok = upstream.statusCode >= 200 && upstream.statusCode < 300;
  const streamed = ok && /^(text\/event-stream|application\/x-ndjson)\b/i.test(contentType);
  const recordAnswer = (answer: Answer | undefined) => record(answer?.decision, { status: upstream.statusCode, blocked: answer?.blocked });
  try {
    // An upstream may stream although the request did not ask to: its open row is written now.
    if (streamed) opened ??= ctx.audit.append(streamOpenEvent(call, target.provider.name, format, view, requestDecision));
    await opened;
    if (streamed) {
      await relayStream(ctx, format, view, upstream, res, abort, recordAnswer);
      observeAdded(0);
    } else {
      observeAdded(await relayBuffered(ctx, format, view, upstream, res, ok, recordAnswer));
    }
  } catch (err) {
    if (abort.signal.aborted && res.destroyed) return; // the client left; nothing to answer
    const failure = upstreamFailure(err);
    await record(undefined, { status: failure.statusCode });
    sendError(res, format, failure.statusCode, failure.message);
  }
}

function relayHeaders(upstream: Dispatcher.ResponseData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value !== undefined && !RESPONSE_HEADERS_DROPPED.has(name)) out[name] = value;
  }
  return out;
}

interface Answer {
  decision: ProxyDecision;
  /** The agent got the block instead of (the rest of) the model's answer. */
  blocked: boolean;
}

/** Commits the call's verdict row; the relay awaits it before the agent gets the answer (or its end). */
type RecordAnswer = (answer: Answer | undefined) => Promise<void>;

async function relayBuffered(
  ctx: ProxyContext, format: ProviderFormat, view: RequestView, upstream: Dispatcher.ResponseData, res: ServerResponse, ok: boolean,
  recordAnswer: RecordAnswer,
): Promise<number> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BUFFERED_ANSWER) {
      upstream.body.destroy();
      await recordAnswer(undefined);
      sendError(res, format, 502, 'the upstream answer is too large to inspect');
      return 0;
    }
    chunks.push(chunk);
  }
  const upstreamDone = performance.now();
  const bytes = Buffer.concat(chunks);
  // Error answers are relayed as they are: they carry the provider's message, not model output.
  if (ok) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      await recordAnswer(undefined);
      sendError(res, format, 502, 'the upstream answer is not JSON and cannot be inspected');
      return performance.now() - upstreamDone;
    }
    const decision = ctx.inspection.response(format.response(parsed));
    await recordAnswer({ decision, blocked: decision.blocked });
    if (decision.blocked) {
      sendBlock(ctx, res, format, { ...view, stream: false }, decision);
      return performance.now() - upstreamDone;
    }
  } else {
    await recordAnswer(undefined);
  }
  res.writeHead(upstream.statusCode, { ...relayHeaders(upstream), 'content-length': bytes.length });
  res.end(bytes);
  return performance.now() - upstreamDone;
}

async function relayStream(
  ctx: ProxyContext, format: ProviderFormat, view: RequestView, upstream: Dispatcher.ResponseData, res: ServerResponse, abort: AbortController,
  recordAnswer: RecordAnswer,
): Promise<void> {
  const contentType = String(upstream.headers['content-type']);
  const framer = /ndjson/i.test(contentType) ? ndjsonFramer() : sseFramer();
  const guard = new StreamGuard(ctx.inspection, format.streamDecoder(view), format.streamDecoder(view), ctx.config.guardrail.mode === 'action', blockText(ctx));
  res.writeHead(upstream.statusCode, { ...relayHeaders(upstream), 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  // The headers normally leave with the first events (one write, one wake-up of the agent); if the model
  // is slow to start, they are sent on their own so the agent's client sees the stream open.
  const headersTimer = setTimeout(() => res.flushHeaders(), HEADERS_ALONE_AFTER_MS);
  res.once('close', () => clearTimeout(headersTimer));
  const decoder = new TextDecoder('utf-8');
  const send = (out: string) => {
    if (out === '') return;
    clearTimeout(headersTimer);
    res.write(out);
  };
  const relay = async (events: FramedEvent[], last: boolean): Promise<boolean> => {
    // A read can hold a whole answer: inspect and send it in slices, so the first tokens are not kept
    // waiting for the inspection of the last ones. Node sends what was written in one tick together, so
    // the loop yields between slices to let each one leave.
    let start = 0;
    while (start < events.length && !guard.blocked) {
      if (start > 0) await yieldToEventLoop();
      let end = start + 1;
      let size = events[start]!.raw.length;
      while (end < events.length && size + events[end]!.raw.length <= RELAY_SLICE_CHARS) size += events[end++]!.raw.length;
      send(guard.push(events.slice(start, end)).send);
      start = end;
    }
    if (last && !guard.blocked) send(guard.finish().send);
    return guard.blocked;
  };
  try {
    for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
      // Cut: leaving the loop destroys the body; the abort below closes the upstream socket.
      if (await relay(framer.push(decoder.decode(chunk, { stream: true })), false)) break;
    }
    if (guard.blocked) abort.abort(); // stop the generation upstream
    else await relay(framer.push(decoder.decode()).concat(framer.flush()), true);
  } catch (err) {
    if (res.destroyed) throw err;
    // The upstream broke off mid-answer: pass on what has been inspected, then end the stream.
    ctx.logger.warn({ err: (err as Error).message }, 'upstream stream ended with an error');
    await relay(framer.flush(), true);
  }
  await recordAnswer({ decision: guard.decision(), blocked: guard.blocked });
  res.end();
}

const ACTION_RANK = { allow: 0, alert: 1, confirm: 2, block: 3 } as const;
/** What an audit row says of one inspection: its action, the action before the mode, the rules behind it. */
const summary = (d: ProxyDecision) => ({ action: d.verdict.action, raw_action: d.verdict.raw_action, rule_ids: d.findings.map((f) => f.rule.id) });
const routeName = (call: ProxiedCall) => (call.chatRoute ? 'chat' : 'passthrough');

/** The row a stream commits before its first byte: the call and the request's verdict. */
function streamOpenEvent(call: ProxiedCall, provider: string, format: ProviderFormat, view: RequestView, request: ProxyDecision): NewAuditEvent {
  return {
    action: `proxy-${routeName(call)}-stream-open`,
    target: provider,
    severity: request.verdict.severity,
    details: request.verdict.reason || undefined,
    structured: {
      format: format.name, model: view.model, stream: true,
      request: summary(request),
    },
  };
}

function auditEvent(
  call: ProxiedCall, provider: string, format: ProviderFormat, view: RequestView,
  request: ProxyDecision, answer: ProxyDecision | undefined, extra: { status?: number; blocked?: boolean },
): NewAuditEvent {
  const decisions = answer ? [request, answer] : [request];
  const worst = decisions.reduce((a, b) => (ACTION_RANK[b.verdict.action] > ACTION_RANK[a.verdict.action] ? b : a));
  const severity = decisions.reduce((a, b) => (SEVERITY_RANK[b.verdict.severity] > SEVERITY_RANK[a.verdict.severity] ? b : a)).verdict.severity;
  return {
    action: `proxy-${routeName(call)}-${worst.verdict.action}`,
    target: provider,
    severity,
    details: worst.verdict.reason || undefined,
    structured: {
      format: format.name, model: view.model, stream: view.stream, status: extra.status, blocked: extra.blocked ?? false,
      request: summary(request),
      ...(answer ? { response: summary(answer) } : {}),
    },
  };
}
