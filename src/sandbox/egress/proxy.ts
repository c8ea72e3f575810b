// The sandbox egress proxy: an HTTP proxy on the host (CONNECT for TLS, absolute-form for plain HTTP) with one
// listening Unix socket per sandbox. The socket is bound into that sandbox only, so the socket a connection
// arrives on IS the sandbox: no credential is needed (or could leak) inside. Every connection is decided by
// decide.ts (firewall module, human, resolution); an allowed one goes to the address that was checked, counted
// for large uploads; a credentialed endpoint's TLS is terminated here with the sandbox's CA so the secret can be
// added on the way out and never enters the sandbox. A model provider (the guardrail proxy's registry) is never
// connected to: its requests (TLS terminated the same way) go to the guardrail proxy with the provider named in
// X-Warden-Target-URL and the gateway token added here, so prompts and answers are inspected with no agent
// configuration and no Warden secret in the sandbox. Every decision is an activity event and an audit row.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect, isIP, type Socket } from 'node:net';
import { join } from 'node:path';
import { rootCertificates, TLSSocket } from 'node:tls';
import { SandboxApiError } from '../errors.js';
import { primeKeys, SandboxCA } from './ca.js';
import { bindingFor, credentialHeader } from './credentials.js';
import { decide, HOST_MACHINE_NAME, type Decision } from './decide.js';
import { SANDBOX_EGRESS_LIMITS } from './limits.js';
import { CA_BUNDLE_FILE, CA_FILE, egressSetup, SOCKET_FILE } from './setup.js';
import { UploadCounter } from './uploads.js';
import type {
  CredentialBinding, EgressDeps, EgressPort, EgressSandbox, EgressSetup, EgressTotals, EndpointResult, Refusal,
} from './types.js';

/** The activity `source` and audit `source` of the egress proxy (spec: the `dc-egress-proxy` style value). */
export const EGRESS_SOURCE = 'warden-egress-proxy';

/** Headers that belong to one hop and are never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);
const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
/** sun_path holds 108 bytes with its terminating NUL on Linux. */
const MAX_SOCKET_PATH = 107;

interface SandboxState {
  sandbox: EgressSandbox;
  server: Server;
  sockets: Set<Socket>;
  uploads: UploadCounter;
  totals: EgressTotals;
  refusals: Map<string, Refusal>;
  endpoints: Map<string, EndpointResult>;
  ca: SandboxCA;
}

/** A terminated connection (TLS to a credentialed endpoint, or any connection to a model provider): where its requests go. */
interface MitmTarget {
  state: SandboxState;
  decision: Decision;
  port: number;
  binding: CredentialBinding | undefined;
  scheme: 'http' | 'https';
}

/** The first byte of a TLS record carrying a handshake: how a tunnel to a provider tells TLS from plain HTTP. */
const TLS_HANDSHAKE = 0x16;

/**
 * The names a destination has on the host side, in the order the registry is asked: the sandbox's name for the
 * host machine is the host's own loopback, so a model server on the host (Ollama's `localhost:11434`) is known.
 */
function hostSideNames(host: string): string[] {
  return host === HOST_MACHINE_NAME ? ['127.0.0.1', 'localhost'] : [host];
}

/** `host` as it goes into a URL (IPv6 in brackets). */
const urlHost = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  if (map.size >= SANDBOX_EGRESS_LIMITS.hostsTracked) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** `host:port` of a CONNECT request (`[v6]:port` for IPv6). */
function parseAuthority(authority: string | undefined): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\s/[\]]+):([0-9]{1,5})$/.exec(authority ?? '');
  if (!match) return undefined;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { host: match[1]!, port } : undefined;
}

/** The request's headers minus hop-by-hop ones and those the Connection header names. */
function forwardedHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const named = new Set(String(req.headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()).filter(Boolean));
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** The response's raw headers minus hop-by-hop ones (transfer-encoding stays: Node re-chunks the body). */
function responseHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

function refusalBody(d: Decision, port: number): string {
  return JSON.stringify({ error: `egress to ${d.host}:${port} refused: ${d.reason}`, category: d.category, host: d.host, port, unblockable: d.unblockable });
}

export class EgressProxy implements EgressPort {
  readonly #deps: EgressDeps;
  readonly #states = new Map<string, SandboxState>();
  readonly #httpAgent = new HttpAgent({ keepAlive: true });
  readonly #httpsAgent: HttpsAgent;
  /** Parses the requests of terminated TLS connections (never listens). */
  readonly #mitm: Server;
  readonly #mitmTargets = new WeakMap<Socket, MitmTarget>();

  constructor(deps: EgressDeps) {
    this.#deps = deps;
    primeKeys();
    this.#httpsAgent = new HttpsAgent({ keepAlive: true, ...(deps.upstreamCA ? { ca: [...rootCertificates, deps.upstreamCA] } : {}) });
    this.#mitm = createServer({ maxHeaderSize: SANDBOX_EGRESS_LIMITS.requestHeadBytes }, (req, res) => this.#onMitmRequest(req, res));
    this.#mitm.requestTimeout = 0;
  }

  /** Opens (again) the sandbox's socket for a new session: counts and refusals start afresh. */
  attach(sandbox: EgressSandbox): EgressSetup {
    this.#close(sandbox.name);
    const dir = this.#deps.dirOf(sandbox.name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const socketPath = join(dir, SOCKET_FILE);
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
      throw new SandboxApiError('unavailable', `the egress proxy socket path is too long for a Unix socket (${socketPath})`, {
        detail: `a Unix socket path has at most ${MAX_SOCKET_PATH} bytes: use a shorter WARDEN_HOME`,
      });
    }
    rmSync(socketPath, { force: true });
    // Every sandbox gets one: model traffic to a provider is terminated whether or not it has credentials.
    const ca = new SandboxCA(sandbox.name);
    writeFileSync(join(dir, CA_FILE), ca.certPem, { mode: 0o644 });
    let system = '';
    try {
      system = readFileSync(SYSTEM_BUNDLE, 'utf8');
    } catch {
      system = rootCertificates.join('\n');
    }
    writeFileSync(join(dir, CA_BUNDLE_FILE), `${system.trimEnd()}\n${ca.certPem}`, { mode: 0o644 });
    const state: SandboxState = {
      sandbox, ca, sockets: new Set(), uploads: new UploadCounter(), refusals: new Map(),
      endpoints: new Map(sandbox.credentials.map((b) => [`${b.host.toLowerCase()}:${b.port}`, { name: b.name, host: b.host, port: b.port, result: 'unused' as const }])),
      totals: { allowed: 0, blocked: 0, asked: 0, large_uploads: 0, bytes_up: 0, bytes_down: 0 },
      server: createServer({ maxHeaderSize: SANDBOX_EGRESS_LIMITS.requestHeadBytes }, (req, res) => void this.#onRequest(state, req, res)),
    };
    const { server } = state;
    server.requestTimeout = 0; // an upload may take longer than any fixed bound; the client's own timeouts apply
    server.on('connection', (socket: Socket) => {
      state.sockets.add(socket);
      socket.once('close', () => state.sockets.delete(socket));
    });
    server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => void this.#onConnect(state, req, socket, head));
    server.on('clientError', (_err, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
    // A listener failing later must not take the gateway down: the sandbox just has no way out.
    server.on('error', (err) => {
      this.#deps.emit?.({ kind: 'finding', sandbox: sandbox.name, reason: 'egress_unavailable', message: `egress proxy: ${err.message}` });
      this.#close(sandbox.name);
    });
    // Binding a Unix socket happens inside listen(): the file exists when attach returns (chmod fails otherwise).
    server.listen(socketPath);
    chmodSync(socketPath, 0o600);
    this.#states.set(sandbox.name, state);
    return egressSetup(dir);
  }

  detach(name: string): void {
    this.#close(name);
    rmSync(this.#deps.dirOf(name), { recursive: true, force: true });
  }

  #close(name: string): void {
    const state = this.#states.get(name);
    if (!state) return;
    this.#states.delete(name);
    state.server.close();
    for (const socket of state.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    for (const name of [...this.#states.keys()]) this.#close(name);
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }

  /** Why the last connection of `sandbox` to `host` was refused (approvals decide what can be unblocked). */
  lastRefusal(sandbox: string, host: string): Refusal | undefined {
    return this.#states.get(sandbox)?.refusals.get(host.toLowerCase());
  }

  /** Sandbox `endpoints`: the last result of each credentialed endpoint. */
  view(sandbox: string): { totals: EgressTotals | undefined; endpoints: EndpointResult[] } {
    return { totals: this.totals(sandbox), endpoints: this.endpoints(sandbox) };
  }

  endpoints(sandbox: string): EndpointResult[] {
    return [...(this.#states.get(sandbox)?.endpoints.values() ?? [])];
  }

  /** Sandbox `egress` totals for the current session. */
  totals(sandbox: string): EgressTotals | undefined {
    const totals = this.#states.get(sandbox)?.totals;
    return totals ? { ...totals } : undefined;
  }

  /**
   * Lifts the large-upload refusal of `host` for the sandbox (the unblock of a `large_upload` refusal): later
   * connections are decided again and its uploads counted afresh. False when the host was not refused so.
   */
  unblockUploads(sandbox: string, host: string): boolean {
    const uploads = this.#states.get(sandbox)?.uploads;
    const name = host.toLowerCase();
    if (!uploads?.blocked(name)) return false;
    uploads.lift(name);
    return true;
  }

  async #decide(state: SandboxState, host: string, port: number, method: string): Promise<Decision> {
    let decision: Decision;
    const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    if (state.uploads.blocked(name)) {
      decision = { allow: false, host: name, category: 'large_upload', rule: 'large_upload', reason: 'an upload to this host crossed the large-upload limit', unblockable: true, asked: false };
    } else {
      try {
        decision = await decide(this.#deps, state.sandbox, host, port);
      } catch (err) {
        // A policy that cannot decide refuses: egress fails closed.
        decision = { allow: false, host: name, category: 'policy_error', rule: null, reason: (err as Error).message, unblockable: false, asked: false };
      }
    }
    if (decision.allow) decision = this.#routed(decision, port);
    if (decision.asked) state.totals.asked += 1;
    this.#record(state, decision, port, method);
    return decision;
  }

  /** An allowed destination that is a model provider is marked for the guardrail proxy. */
  #routed(d: Decision, port: number): Decision {
    const route = this.#deps.guardrail?.();
    if (!route) return d;
    for (const targetHost of hostSideNames(d.host)) {
      const provider = route.provider(new URL(`http://${urlHost(targetHost)}:${port}`));
      if (provider !== undefined) {
        return {
          ...d, category: 'llm', reason: `model provider ${provider}: sent to the guardrail proxy (firewall: ${d.reason})`,
          llm: { provider, firewallCategory: d.category, targetHost },
        };
      }
    }
    return d;
  }

  /** The activity event and audit row of a decision (or of a cut: `bytes` given). */
  #record(state: SandboxState, d: Decision, port: number, method: string, bytes?: { up: number; down: number }): void {
    const { sandbox } = state;
    if (d.allow) state.totals.allowed += 1;
    else {
      state.totals.blocked += 1;
      remember(state.refusals, d.host, { unblockable: d.unblockable, category: d.category });
    }
    this.#deps.emit?.({
      kind: d.allow ? 'egress.allowed' : 'egress.blocked', sandbox: sandbox.name, host: d.host, port, method, source: EGRESS_SOURCE,
      category: d.category, rule: d.rule, unblockable: d.unblockable, bytes_up: bytes?.up ?? 0, bytes_down: bytes?.down ?? 0,
      ...(d.allow ? {} : { reason: d.reason }), ...(d.llm ? { via: 'guardrail_proxy', provider: d.llm.provider } : {}),
    });
    void this.#deps.audit?.({
      hostname: d.host, method, blocked: !d.allow, decision: d.allow ? 'allow' : 'block', branch: d.category, reason: d.reason,
      ...(d.llm ? { looks_like_llm: true } : {}), source: EGRESS_SOURCE, session_id: `${sandbox.name}#${sandbox.session}`, agent_id: sandbox.name,
      details: {
        sandbox: sandbox.name, session: sandbox.session, port, rule: d.rule, category: d.category, unblockable: d.unblockable, asked: d.asked,
        ...(d.address ? { address: d.address } : {}), ...(bytes ? { bytes_up: bytes.up, bytes_down: bytes.down } : {}),
        ...(d.llm ? { via: 'guardrail_proxy', provider: d.llm.provider, firewall_category: d.llm.firewallCategory } : {}),
      },
    }).catch(() => {});
  }

  /** Counts bytes going up on a connection; false when the large-upload block cuts it (recorded here). */
  #up(state: SandboxState, d: Decision, port: number, method: string, flow: { up: number; down: number }, bytes: number): boolean {
    const settings = this.#deps.settings();
    const verdict = state.uploads.add(d.host, bytes, settings);
    if (verdict === 'cut') {
      state.totals.large_uploads += 1;
      const cut: Decision = { ...d, allow: false, category: 'large_upload', rule: 'large_upload', unblockable: true, reason: `upload crossed ${settings.large_upload_bytes} bytes to a host first seen in this session` };
      this.#record(state, cut, port, method, { up: state.uploads.sentTo(d.host) - bytes, down: flow.down });
      return false;
    }
    flow.up += bytes;
    state.totals.bytes_up += bytes;
    if (verdict === 'report') {
      state.totals.large_uploads += 1;
      this.#deps.emit?.({
        kind: 'egress.large_upload', sandbox: state.sandbox.name, host: d.host, port, method, source: EGRESS_SOURCE,
        category: 'large_upload', bytes_up: state.uploads.sentTo(d.host), threshold: settings.large_upload_bytes,
      });
    }
    return true;
  }

  #down(state: SandboxState, flow: { up: number; down: number }, bytes: number): void {
    flow.down += bytes;
    state.totals.bytes_down += bytes;
  }

  async #onConnect(state: SandboxState, req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url);
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    const d = await this.#decide(state, target.host, target.port, 'CONNECT');
    if (client.destroyed) return;
    if (!d.allow) {
      const body = refusalBody(d, target.port);
      client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: application/json\r\nX-Warden-Egress: blocked; category=${d.category}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    const binding = bindingFor(state.sandbox.credentials, d.host, target.port);
    if (d.llm) this.#intercept(state, d, target.port, binding, client, head);
    else if (binding) this.#terminate(state, d, target.port, binding, client, head);
    else this.#tunnel(state, d, target.port, client, head);
  }

  /** A byte-for-byte tunnel to the checked address, counted both ways. */
  #tunnel(state: SandboxState, d: Decision, port: number, client: Socket, head: Buffer): void {
    const flow = { up: 0, down: 0 };
    const upstream = connect({ host: d.address!, port, noDelay: true, allowHalfOpen: true });
    let connected = false;
    upstream.setTimeout(SANDBOX_EGRESS_LIMITS.connectTimeoutMs, () => upstream.destroy(new Error('connect timeout')));
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.once('error', () => {
      if (!connected && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else client.destroy();
      upstream.destroy();
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      const send = (chunk: Buffer) => {
        if (!this.#up(state, d, port, 'CONNECT', flow, chunk.length)) return closeBoth();
        if (!upstream.write(chunk)) client.pause();
      };
      if (head.length > 0) send(head);
      client.on('data', send);
      upstream.on('drain', () => client.resume());
      upstream.on('data', (chunk: Buffer) => {
        this.#down(state, flow, chunk.length);
        if (!client.write(chunk)) upstream.pause();
      });
      client.on('drain', () => upstream.resume());
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
    });
  }

  /** TLS to a credentialed endpoint: answered here with the sandbox CA's certificate, requests parsed by #mitm. */
  #terminate(state: SandboxState, d: Decision, port: number, binding: CredentialBinding, client: Socket, head: Buffer): void {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    this.#parseTls(state, d, port, binding, client, head);
  }

  #parseTls(state: SandboxState, d: Decision, port: number, binding: CredentialBinding | undefined, client: Socket, head: Buffer): void {
    if (head.length > 0) client.unshift(head);
    const tls = new TLSSocket(client, { isServer: true, secureContext: state.ca.contextFor(d.host), ALPNProtocols: ['http/1.1'] });
    tls.on('error', () => client.destroy());
    this.#mitmTargets.set(tls, { state, decision: d, port, binding, scheme: 'https' });
    this.#mitm.emit('connection', tls);
  }

  /**
   * A tunnel to a model provider: whatever it carries is parsed here, never passed on unread. Its first byte says
   * which: a TLS handshake is terminated with the sandbox's CA, anything else is read as plain HTTP (a client
   * that tunnels http:// too).
   */
  #intercept(state: SandboxState, d: Decision, port: number, binding: CredentialBinding | undefined, client: Socket, head: Buffer): void {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    const route = (first: Buffer) => {
      if (first[0] === TLS_HANDSHAKE) return this.#parseTls(state, d, port, binding, client, first);
      // A binding on 443 is a TLS endpoint: its secret is never added to a request the sandbox sent in clear.
      this.#mitmTargets.set(client, { state, decision: d, port, binding: port === 443 ? undefined : binding, scheme: 'http' });
      this.#mitm.emit('connection', client);
      // The parser reads later bytes from the socket's handle itself; the byte already read reaches it as data.
      client.unshift(first);
      client.resume();
    };
    if (head.length > 0) return route(head);
    client.once('data', (first: Buffer) => {
      client.pause();
      route(first);
    });
  }

  #onMitmRequest(req: IncomingMessage, res: ServerResponse): void {
    const target = this.#mitmTargets.get(req.socket);
    if (!target) {
      res.writeHead(500).end();
      return;
    }
    const { state, decision: d, port, binding, scheme } = target;
    if (d.llm) {
      this.#toGuardrail(state, d, port, scheme, req.url ?? '/', req, res, binding);
      return;
    }
    if (!binding) {
      res.writeHead(500).end();
      return;
    }
    const header = credentialHeader(binding);
    const headers = { ...forwardedHeaders(req), host: port === 443 ? d.host : `${d.host}:${port}`, [header.name]: header.value };
    const upstream = httpsRequest({
      host: d.address, port, method: req.method, path: req.url, headers, agent: this.#httpsAgent, setHost: false,
      ...(isIP(d.host) ? {} : { servername: d.host }), timeout: SANDBOX_EGRESS_LIMITS.connectTimeoutMs,
    });
    this.#relay(state, d, port, req, res, upstream, binding);
  }

  async #onRequest(state: SandboxState, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('the egress proxy takes CONNECT or absolute-form requests (http://host/path)\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('only http:// URLs go in absolute form; use CONNECT for TLS\n');
      return;
    }
    const port = url.port === '' ? 80 : Number(url.port);
    const method = req.method ?? 'GET';
    req.pause();
    const d = await this.#decide(state, url.hostname, port, method);
    if (res.destroyed) return;
    if (!d.allow) {
      req.resume();
      res.writeHead(403, { 'content-type': 'application/json', 'x-warden-egress': `blocked; category=${d.category}`, connection: 'close' }).end(refusalBody(d, port));
      return;
    }
    // A binding on 443 is a TLS endpoint: its secret never goes out in clear text, even to the right address.
    const binding = port === 443 ? undefined : bindingFor(state.sandbox.credentials, d.host, port);
    if (d.llm) {
      this.#toGuardrail(state, d, port, 'http', `${url.pathname}${url.search}`, req, res, binding);
      req.resume();
      return;
    }
    const headers: Record<string, string | string[]> = { ...forwardedHeaders(req), host: url.host };
    if (binding) {
      const header = credentialHeader(binding);
      headers[header.name] = header.value;
    }
    const upstream = httpRequest({
      host: d.address, port, method, path: `${url.pathname}${url.search}`, headers, agent: this.#httpAgent, setHost: false,
      timeout: SANDBOX_EGRESS_LIMITS.connectTimeoutMs,
    });
    this.#relay(state, d, port, req, res, upstream, binding);
    req.resume();
  }

  /**
   * A request to a model provider, sent to the guardrail proxy instead: the provider's origin in
   * X-Warden-Target-URL (the guardrail proxy joins it with the path), the gateway token in X-Warden-Auth, the
   * sandbox's own provider credential (or the binding's) left for the guardrail proxy to forward (a request that is
   * not a model call, such as GET /v1/models, goes without the token: the guardrail proxy refuses it). Whatever
   * X-Warden-* the sandbox sent is dropped: it must not pick a target or present a token. No idle timeout here:
   * the guardrail proxy bounds the wait for the model (llm.timeout_ms), and a model may think for minutes.
   */
  #toGuardrail(
    state: SandboxState, d: Decision, port: number, scheme: 'http' | 'https', path: string, req: IncomingMessage, res: ServerResponse,
    binding: CredentialBinding | undefined,
  ): void {
    const route = this.#deps.guardrail?.();
    if (!route || !d.llm) {
      req.resume();
      res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end('egress proxy: the guardrail proxy is not available\n');
      return;
    }
    const guardrail = new URL(route.url);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(forwardedHeaders(req))) if (!name.startsWith('x-warden-')) headers[name] = value;
    headers.host = guardrail.host;
    if (binding) {
      const header = credentialHeader(binding);
      headers[header.name] = header.value;
    }
    const defaultPort = scheme === 'https' ? 443 : 80;
    headers['x-warden-target-url'] = `${scheme}://${urlHost(d.llm.targetHost)}${port === defaultPort ? '' : `:${port}`}`;
    // The token opens model routes only: a sandbox must not reload the registry or write egress events with it.
    if (route.token !== undefined && route.isModelCall(req.method ?? 'GET', path)) headers['x-warden-auth'] = `Bearer ${route.token}`;
    const upstream = httpRequest({
      host: guardrail.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(guardrail.port || 80), method: req.method, path, headers,
      agent: this.#httpAgent, setHost: false,
    });
    this.#relay(state, d, port, req, res, upstream, binding);
  }

  /** Sends a request upstream and its answer back, counting bytes; an endpoint's result is remembered. */
  #relay(
    state: SandboxState, d: Decision, port: number, req: IncomingMessage, res: ServerResponse,
    upstream: ReturnType<typeof httpRequest>, binding: CredentialBinding | undefined,
  ): void {
    const flow = { up: 0, down: 0 };
    const method = req.method ?? 'GET';
    const endpoint = (result: Partial<EndpointResult>) => {
      if (!binding) return;
      const key = `${binding.host.toLowerCase()}:${binding.port}`;
      remember(state.endpoints, key, { name: binding.name, host: binding.host, port: binding.port, result: 'unused', ...result, at: new Date().toISOString() });
    };
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('error', (err) => {
      endpoint({ result: 'unreachable', error: err.message });
      const what = d.llm ? 'the guardrail proxy' : `${d.host}:${port}`;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end(`egress proxy: ${what} unreachable\n`);
      else res.destroy();
    });
    upstream.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      endpoint({ result: status < 400 ? 'ok' : 'error', status });
      res.writeHead(status, answer.statusMessage, responseHeaders(answer.rawHeaders));
      answer.on('data', (chunk: Buffer) => this.#down(state, flow, chunk.length));
      answer.pipe(res);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    // Counted before the pipe writes the chunk: a chunk that crosses the limit is never sent.
    req.on('data', (chunk: Buffer) => {
      if (this.#up(state, d, port, method, flow, chunk.length)) return;
      upstream.destroy();
      req.socket.destroy();
    });
    req.pipe(upstream);
  }
}
