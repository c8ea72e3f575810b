// A client of OpenClaw's gateway WebSocket protocol (version 4), the upstream agent gateway Warden bridges to.
// The handshake: the gateway sends a `connect.challenge` event {nonce, ts}; the client answers with a `connect`
// request carrying its client info, role and scopes, the shared gateway token and its device identity signed
// over the challenge (device-identity.ts); the gateway answers `hello-ok`. Then requests are
// `{type:"req", id, method, params}` and answers `{type:"res", id, ok, payload | error}`; other frames are events.
// The socket is reopened with exponential backoff whenever it closes. Calls made while it is down fail at once
// (the sidecar answers 502 rather than hold an operator's request), and a call in flight when it drops fails too.
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { type DeviceIdentity, signConnect } from './device-identity.js';
import { UpstreamCallError, UpstreamDisconnectedError } from './errors.js';
import { UPSTREAM_LIMITS } from './limits.js';

export const PROTOCOL_VERSION = 4;
/**
 * Warden connects as an operator CLI client with a device identity: on direct loopback OpenClaw approves the
 * pairing of such a device itself (the reserved `gateway-client`/`backend` path is for OpenClaw's own helpers).
 */
const CLIENT = { id: 'cli', mode: 'cli' } as const;
/** config.* methods need operator.admin; skills.status and tools.catalog need operator.read. */
const SCOPES = ['operator.admin', 'operator.read', 'operator.write'] as const;

/** The part of the gateway's hello that /status shows: never the device token it may carry. */
export interface UpstreamHello {
  protocol: number;
  server: { version?: string; conn_id?: string };
  role?: string;
  scopes: string[];
  methods: number;
  connected_at: string;
}

export interface UpstreamClientOptions {
  /** ws:// URL of the gateway. */
  url: string;
  /** The gateway's shared token (`gateway.auth.token` upstream); empty when it runs without one. */
  token: string;
  identity: DeviceIdentity;
  clientVersion: string;
  log?: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
}

interface Frame { type?: unknown; id?: unknown; ok?: unknown; payload?: unknown; error?: unknown; event?: unknown }
interface Pending { method: string; resolve: (value: unknown) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Emits `connected` (with the hello) and `disconnected` (with the reason). */
export class UpstreamGatewayClient extends EventEmitter {
  private socket: WebSocket | undefined;
  private ready = false;
  private stopped = false;
  private attempts = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private readonly pending = new Map<string, Pending>();
  private lastError = 'not connected yet';
  hello: UpstreamHello | undefined;

  constructor(private readonly options: UpstreamClientOptions) {
    super();
  }

  get connected(): boolean {
    return this.ready;
  }

  /** Why the client is not connected (the last handshake or socket failure). */
  get lastFailure(): string {
    return this.lastError;
  }

  start(): void {
    this.stopped = false;
    if (!this.socket && !this.retryTimer) this.open();
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.close(1000, 'warden stopping');
      setTimeout(() => { socket.terminate(); resolve(); }, 1_000).unref();
    });
  }

  /** One request; resolves with the answer's payload. */
  call<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    if (!this.ready || !this.socket) return Promise.reject(new UpstreamDisconnectedError(this.lastError));
    return this.request(this.socket, method, params) as Promise<T>;
  }

  private request(socket: WebSocket, method: string, params: Record<string, unknown>): Promise<unknown> {
    if (this.pending.size >= UPSTREAM_LIMITS.inFlightCalls) {
      return Promise.reject(new UpstreamCallError(method, `more than ${UPSTREAM_LIMITS.inFlightCalls} calls in flight`));
    }
    const id = `w${++this.nextId}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new UpstreamCallError(method, `no answer within ${UPSTREAM_LIMITS.callTimeoutMs} ms`));
      }, UPSTREAM_LIMITS.callTimeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      socket.send(JSON.stringify({ type: 'req', id, method, params }));
    });
  }

  private open(): void {
    const socket = new WebSocket(this.options.url, { maxPayload: UPSTREAM_LIMITS.maxFrameBytes, handshakeTimeout: UPSTREAM_LIMITS.handshakeTimeoutMs });
    this.socket = socket;
    this.handshakeTimer = setTimeout(() => {
      this.lastError = `no hello within ${UPSTREAM_LIMITS.handshakeTimeoutMs} ms`;
      socket.terminate();
    }, UPSTREAM_LIMITS.handshakeTimeoutMs);
    socket.on('message', (data) => this.onMessage(socket, data.toString()));
    socket.on('error', (err) => { this.lastError = err.message; });
    socket.on('close', (code, reason) => this.onClose(socket, code, reason.toString()));
  }

  private onMessage(socket: WebSocket, text: string): void {
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      this.lastError = 'the gateway sent a frame that is not JSON';
      socket.close(1002, 'invalid frame');
      return;
    }
    if (!isObject(frame)) return;
    if (frame.type === 'event' && frame.event === 'connect.challenge' && !this.ready) {
      void this.handshake(socket, frame.payload);
    } else if (frame.type === 'res' && typeof frame.id === 'string') {
      const call = this.pending.get(frame.id);
      if (!call) return;
      this.pending.delete(frame.id);
      clearTimeout(call.timer);
      if (frame.ok === true) call.resolve(frame.payload);
      else {
        const error = isObject(frame.error) ? frame.error : {};
        call.reject(new UpstreamCallError(call.method, typeof error.message === 'string' ? error.message : 'refused',
          typeof error.code === 'string' ? error.code : undefined));
      }
    }
    // Other events (ticks, presence, health, config.changed…) carry nothing the bridge needs.
  }

  private async handshake(socket: WebSocket, challenge: unknown): Promise<void> {
    const nonce = isObject(challenge) && typeof challenge.nonce === 'string' ? challenge.nonce : '';
    const ts = isObject(challenge) ? challenge.ts : undefined;
    // The protocol makes a challenge without a non-negative integer `ts` invalid: the signature binds it.
    if (nonce === '' || typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0) {
      this.lastError = 'the gateway sent an invalid connect.challenge';
      socket.close(1002, 'invalid challenge');
      return;
    }
    const { identity, token, clientVersion } = this.options;
    const platform = process.platform;
    const signed = { clientId: CLIENT.id, clientMode: CLIENT.mode, role: 'operator', scopes: SCOPES, signedAtMs: ts, token, nonce, platform };
    try {
      const hello = await this.request(socket, 'connect', {
        minProtocol: PROTOCOL_VERSION,
        maxProtocol: PROTOCOL_VERSION,
        client: { id: CLIENT.id, displayName: 'Warden', version: clientVersion, platform, mode: CLIENT.mode },
        role: 'operator',
        scopes: SCOPES,
        caps: [],
        ...(token ? { auth: { token } } : {}),
        device: { id: identity.deviceId, publicKey: identity.publicKey, signature: signConnect(identity, signed), signedAt: ts, nonce },
      });
      this.onHello(socket, hello);
    } catch (err) {
      this.lastError = `handshake refused: ${(err as Error).message}`;
      socket.close(1000, 'handshake refused');
    }
  }

  private onHello(socket: WebSocket, payload: unknown): void {
    if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
    clearTimeout(this.handshakeTimer);
    const hello = isObject(payload) ? payload : {};
    const server = isObject(hello.server) ? hello.server : {};
    const auth = isObject(hello.auth) ? hello.auth : {};
    const features = isObject(hello.features) ? hello.features : {};
    this.hello = {
      protocol: typeof hello.protocol === 'number' ? hello.protocol : PROTOCOL_VERSION,
      server: {
        ...(typeof server.version === 'string' ? { version: server.version } : {}),
        ...(typeof server.connId === 'string' ? { conn_id: server.connId } : {}),
      },
      ...(typeof auth.role === 'string' ? { role: auth.role } : {}),
      scopes: Array.isArray(auth.scopes) ? auth.scopes.filter((s): s is string => typeof s === 'string') : [],
      methods: Array.isArray(features.methods) ? features.methods.length : 0,
      connected_at: new Date().toISOString(),
    };
    this.ready = true;
    this.attempts = 0;
    this.options.log?.('info', 'connected to the upstream agent gateway', { url: this.options.url, version: this.hello.server.version });
    this.emit('connected', this.hello);
  }

  private onClose(socket: WebSocket, code: number, reason: string): void {
    if (this.socket !== socket) return;
    clearTimeout(this.handshakeTimer);
    const wasReady = this.ready;
    this.socket = undefined;
    this.ready = false;
    this.hello = undefined;
    if (wasReady) this.lastError = `connection closed (${code}${reason ? ` ${reason}` : ''})`;
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer);
      call.reject(new UpstreamDisconnectedError(`the connection dropped during ${call.method}`));
      this.pending.delete(id);
    }
    if (wasReady) {
      this.options.log?.('warn', 'upstream agent gateway connection closed', { code, reason });
      this.emit('disconnected', this.lastError);
    }
    if (this.stopped) return;
    // Exponential backoff from the first failure, reset by a successful hello.
    const delay = Math.min(UPSTREAM_LIMITS.reconnectMinMs * 2 ** this.attempts, UPSTREAM_LIMITS.reconnectMaxMs);
    this.attempts = Math.min(this.attempts + 1, 30);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.stopped) this.open();
    }, delay);
    this.retryTimer.unref();
  }
}
