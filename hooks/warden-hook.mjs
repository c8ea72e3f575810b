#!/usr/bin/env node
// warden-hook: what an AI coding agent runs for every hook event, as installed by `warden setup <connector>`:
//   node warden-hook.mjs <connector> [--home DIR] [--event NAME] [--notify] [EVENT_JSON]
// It sends the event (stdin, or EVENT_JSON as the last argument, as Codex's `notify` passes it) to the sidecar's
// POST /api/v1/<connector>/hook (with --notify, the connector's turn-complete notifier /api/v1/<connector>/notify)
// and answers as the sidecar says: prints `native.stdout` as JSON and `native.stderr`,
// and exits with `native.exit_code`. When the sidecar cannot be asked, the fail mode answers (docs/hooks.md).
// hooks/warden-hook.sh, the faster command setup installs where sh and curl exist, hands its failures over here so the
// fail mode lives in one place: `--failed REASON` (it could not ask; REASON in Warden's words) or `--answered STATUS`
// (the sidecar answered STATUS with a body, on stdin, that the sh script could not use): judged as if asked here.
// Dependency-free, built-ins only: the agent starts it for every event, so start-up time is the budget.
/* global process, Buffer, URL, setTimeout, clearTimeout -- Node globals (the lint config types only TypeScript) */
import { appendFileSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const MAX_EVENT_BYTES = 8 * 1024 * 1024;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const CONNECT_TIMEOUT_MS = 2000;
const TOTAL_TIMEOUT_MS = 10_000;
const DEFAULT_SIDECAR = 'http://127.0.0.1:18970';

// When Warden cannot be asked and hooks fail closed, the agent's own refusal answers on its gate events (pre-tool and
// prompt events, whose answer can stop something). `warden setup` writes both into the settings file as `fail_closed`,
// derived from the agent's definition (src/connectors/<agent>/: its gate events and `refusal`), so this script keeps
// no copy of any agent. On any other event a closed failure passes with a warning: a block answer there stops
// nothing, and on a Stop event it would force the agent to keep working. Settings without a valid `fail_closed`
// (an older setup, a hand edit) make every event a gate, answered with exit 2 and the reason on stderr: closed stays
// closed. docs/hooks.md ("Fail modes") has the sources per agent.
const REASON_MARKER = '{{reason}}'; // REFUSAL_REASON_MARKER in src/connectors/setup/install.ts
const EVENT_NAME = /^[\w.:-]{1,64}$/;

class HookFailure extends Error {
  /** `detail` goes to stderr only: it may quote the sidecar, and the failure log keeps to our own words. */
  constructor(reason, detail) {
    super(reason);
    this.detail = detail;
  }
}

function parseArgs(argv) {
  const args = { positional: [] };
  for (let i = 0; i < argv.length; i++) {
    if (['--home', '--event', '--failed', '--answered'].includes(argv[i])) args[argv[i].slice(2)] = argv[++i];
    else if (argv[i] === '--notify') args.notify = true;
    else args.positional.push(argv[i]);
  }
  args.connector = args.positional.shift() ?? '';
  args.inlineEvent = args.positional.pop();
  return args;
}

const validConnector = (name) => /^[a-z0-9]+$/.test(name);
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON object in `text`, or {} for anything else. */
function objectOf(text) {
  try {
    const value = JSON.parse(text);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** A file's text, or '' when it cannot be read (a missing file means defaults). */
function readText(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

const readJson = (path) => objectOf(readText(path));

/** stdin up to 8 MiB; an agent that never closes it gets the fail mode, not a hung hook. */
function readStdin(timeoutMs) {
  return new Promise((resolveRead, reject) => {
    const chunks = [];
    let size = 0;
    const timer = setTimeout(() => fail('no complete event on stdin within the timeout'), timeoutMs);
    const fail = (reason) => {
      clearTimeout(timer);
      process.stdin.destroy();
      reject(new HookFailure(reason));
    };
    process.stdin.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_EVENT_BYTES) fail('event larger than 8 MiB');
      else chunks.push(chunk);
    });
    process.stdin.on('error', () => fail('cannot read the event from stdin'));
    process.stdin.on('end', () => {
      clearTimeout(timer);
      resolveRead(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

function parseEvent(text) {
  if (text.trim() === '') throw new HookFailure('no event on stdin');
  try {
    return JSON.parse(text);
  } catch {
    throw new HookFailure('event is not valid JSON');
  }
}

/** The event's name as the agent sent it, for the fail mode and the failure log (a name, never content). */
function eventName(args, payload) {
  const name = args.event ?? (isObject(payload) ? [payload.hook_event_name, payload.agent_action_name, payload.type, payload.event].find((v) => typeof v === 'string') : undefined);
  return typeof name === 'string' && EVENT_NAME.test(name) ? name : undefined;
}

function post(url, body, token, totalMs, socketPath) {
  return new Promise((resolvePost, reject) => {
    const headers = { 'content-type': 'application/json', 'x-warden-client': 'warden-hook', 'content-length': Buffer.byteLength(body) };
    if (token) headers.authorization = `Bearer ${token}`;
    // A sandbox's settings name its hook ingress socket: the URL then gives only the path.
    const req = httpRequest(url, { method: 'POST', agent: false, headers, ...(socketPath ? { socketPath } : {}) });
    const abort = (reason) => req.destroy(new HookFailure(reason));
    const total = setTimeout(() => abort(`no answer within ${totalMs} ms`), totalMs);
    const connect = setTimeout(() => abort(`no connection within ${CONNECT_TIMEOUT_MS} ms`), Math.min(CONNECT_TIMEOUT_MS, totalMs));
    let settled = false;
    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      clearTimeout(connect);
      fn(value);
    };
    req.on('socket', (socket) => socket.once('connect', () => clearTimeout(connect)));
    req.on('error', (err) => settle(reject, err));
    req.on('response', (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (chunk) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) abort('answer larger than 4 MiB');
        else chunks.push(chunk);
      });
      res.on('end', () => settle(resolvePost, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => settle(reject, err));
      res.on('close', () => settle(reject, new HookFailure('connection closed before the answer was complete')));
    });
    req.end(body);
  });
}

/** `value` as a NativeHookAnswer (exit_code 0–255, stdout an object or absent, stderr a string or absent), or undefined. */
function nativeOf(value) {
  if (!isObject(value)) return undefined;
  const { stdout, stderr, exit_code: code } = value;
  if (!Number.isInteger(code) || code < 0 || code > 255) return undefined;
  if ((stdout !== undefined && !isObject(stdout)) || (stderr !== undefined && typeof stderr !== 'string')) return undefined;
  return { stdout, stderr, exit_code: code };
}

/** `native` from a 2xx answer, or undefined when it is not the NativeHookAnswer contract. */
const nativeAnswer = (text) => nativeOf(objectOf(text).native);

/** The settings' `fail_closed` (gate event names, at least one, and a refusal), or undefined when absent or malformed. */
function failClosedOf(settings) {
  const entry = settings.fail_closed;
  if (!isObject(entry)) return undefined;
  const { gates, refusal } = entry;
  if (!Array.isArray(gates) || gates.length === 0 || !gates.every((g) => typeof g === 'string' && EVENT_NAME.test(g))) return undefined;
  const answer = nativeOf(refusal);
  return answer && { gates, refusal: answer };
}

/** `value` with the reason in place of every REASON_MARKER in its strings (split and join: no replacement patterns). */
function withReason(value, reason) {
  if (typeof value === 'string') return value.split(REASON_MARKER).join(reason);
  if (Array.isArray(value)) return value.map((item) => withReason(item, reason));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withReason(item, reason)]));
  return value;
}

async function ask(args, home, settings, event) {
  const totalMs = Number.isInteger(settings.total_timeout_ms) && settings.total_timeout_ms > 0 ? settings.total_timeout_ms : TOTAL_TIMEOUT_MS;
  const payload = parseEvent(args.inlineEvent ?? (await readStdin(totalMs)));
  event.name = eventName(args, payload);
  // Some agents (Copilot's camelCase hooks, Antigravity) name no event in the payload: the installed command does.
  if (args.event && isObject(payload) && payload.hook_event_name === undefined) {
    payload.hook_event_name = args.event;
  }
  const sidecar = [settings.sidecar, readJson(join(home, 'gateway.json')).sidecar].find((s) => typeof s === 'string') ?? DEFAULT_SIDECAR;
  let url;
  try {
    url = new URL(`${sidecar.replace(/\/+$/, '')}/api/v1/${args.connector}/${args.notify ? 'notify' : 'hook'}`);
  } catch {
    throw new HookFailure('invalid sidecar URL in the hook settings');
  }
  // Without a token file the sidecar answers 401, which names the problem.
  const token = readText(typeof settings.token_file === 'string' ? settings.token_file : join(home, 'hooks', `${args.connector}.token`)).trim();
  let answer;
  try {
    answer = await post(url, JSON.stringify(payload), token, totalMs, typeof settings.socket === 'string' ? settings.socket : undefined);
  } catch (err) {
    throw err instanceof HookFailure ? err : new HookFailure(`sidecar unreachable at ${url.origin}: ${err.code ?? err.message}`);
  }
  return judge(answer);
}

/** The native answer in the sidecar's answer, or the HookFailure that applies the fail mode. */
function judge(answer) {
  if (answer.status >= 400) {
    const said = String(objectOf(answer.text).error ?? '');
    const refused = answer.status < 500 ? 'sidecar refused the hook call' : 'sidecar failed';
    throw new HookFailure(`${refused} (HTTP ${answer.status})`, said && `${refused} (HTTP ${answer.status}: ${said.slice(0, 300)})`);
  }
  const native = answer.status >= 200 && answer.status < 300 ? nativeAnswer(answer.text) : undefined;
  if (!native) throw new HookFailure(`unreadable answer from the sidecar (HTTP ${answer.status})`);
  return native;
}

function logFailure(home, entry) {
  try {
    appendFileSync(join(home, 'hook-failures.jsonl'), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  } catch {
    // The answer to the agent matters more than the log line.
  }
}

/**
 * The answer when Warden could not be asked: the agent's own refusal (closed, on a gate event), exit 2 with the reason
 * on stderr (closed, settings without a valid `fail_closed`: every event is a gate), or a pass.
 */
function failModeAnswer(args, home, settings, eventName, failure) {
  const failMode = settings.fail_mode === 'open' ? 'open' : 'closed';
  const failClosed = failClosedOf(settings);
  const gate = eventName === undefined || failClosed === undefined || failClosed.gates.includes(eventName);
  const blocked = failMode === 'closed' && gate;
  logFailure(home, { time: new Date().toISOString(), connector: args.connector, event: eventName ?? null, reason: failure.message, fail_mode: failMode, outcome: blocked ? 'blocked' : 'allowed' });
  const what = `Warden could not check this ${eventName ?? 'hook'} event (${failure.detail || failure.message})`;
  const refused = failure.message.startsWith('sidecar refused');
  const unreachable = / (unreachable|no connection|no answer|failed)/.test(failure.message);
  const rerun = `\`warden setup ${args.connector}\` again.`;
  const stale = failClosed === undefined && validConnector(args.connector);
  const hint = [
    unreachable ? ' Is the gateway running? Try `warden status`.' : '',
    stale ? ` Its hook settings hold no valid fail-closed answer: run ${rerun}` : refused ? ` Run ${rerun}` : '',
  ].join('');
  if (blocked) {
    const reason = `${what}; hooks fail closed, so it is blocked.${hint}`;
    return failClosed ? withReason(failClosed.refusal, reason) : { stderr: reason, exit_code: 2 };
  }
  // Open stays silent about transport failures; a refusal (4xx) is a setup problem the user must see.
  if (failMode === 'open') return refused ? { stderr: `${what}; hooks fail open, so it proceeds.`, exit_code: 0 } : { exit_code: 0 };
  return { stderr: `${what}; this event cannot be blocked, so it proceeds.`, exit_code: 0 };
}

const write = (stream, text) => new Promise((done) => (text ? stream.write(text, () => done()) : done()));

/**
 * What the sh script handed over: its reason for not asking, or an answer it could not use (an error, or a sidecar
 * that answered JSON), judged here as if this script had asked. The event came on stdin or as the last argument.
 */
async function handedOver(args, event) {
  if (args.inlineEvent !== undefined) event.name = eventName(args, objectOf(args.inlineEvent));
  if (args.failed !== undefined) throw new HookFailure(args.failed.slice(0, 300) || 'the sh hook failed');
  const status = Number(args.answered);
  return judge({ status: Number.isInteger(status) ? status : 0, text: await readStdin(TOTAL_TIMEOUT_MS) });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const home = resolve(args.home ?? (process.env.WARDEN_HOME || join(homedir(), '.warden')));
  const valid = validConnector(args.connector);
  const settings = valid ? readJson(join(home, 'hooks', `${args.connector}.json`)) : {};
  const event = { name: args.event };
  let native;
  try {
    if (!valid) throw new HookFailure('usage: warden-hook.mjs <connector> [--home DIR] [--event NAME]');
    const handover = args.failed !== undefined || args.answered !== undefined;
    native = handover ? await handedOver(args, event) : await ask(args, home, settings, event);
  } catch (err) {
    const failure = err instanceof HookFailure ? err : new HookFailure(`internal error: ${err?.message ?? err}`);
    native = failModeAnswer(args, home, settings, event.name, failure);
  }
  // Flush both streams before exiting: on some platforms pipe writes are asynchronous.
  await write(process.stdout, native.stdout === undefined ? '' : `${JSON.stringify(native.stdout)}\n`);
  await write(process.stderr, native.stderr ? `${native.stderr.replace(/\n?$/, '\n')}` : '');
  process.exit(native.exit_code);
}

await main();
