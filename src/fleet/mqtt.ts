// The fleet's MQTT side: the broker devices connect to (fleet.mqtt.url, or an embedded aedes broker on
// 127.0.0.1 so the fleet works out of the box) and the gateway's own client that publishes to it. A publish
// resolves when the broker acknowledged it (QoS 1 PUBACK): broker acceptance, never device receipt.
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { ReasonCodes, type MqttClient } from 'mqtt';
import { splitBrokerUrl } from './broker-url.js';
import { FLEET_LIMITS } from './limits.js';
import { WardenError } from '../errors.js';

/** Per-fleet topics (documented in docs/fleet-wire.md). */
export const topics = {
  policy: (tenant: number, fleet: number) => `warden/fleet/${tenant}/${fleet}/policy`,
  emergency: (tenant: number, fleet: number) => `warden/fleet/${tenant}/${fleet}/emergency`,
  /** Replies to one device: missed emergency frames, a newer policy. */
  deviceEmergency: (tenant: number, fleet: number, device: number) => `warden/fleet/${tenant}/${fleet}/device/${device}/emergency`,
  devicePolicy: (tenant: number, fleet: number, device: number) => `warden/fleet/${tenant}/${fleet}/device/${device}/policy`,
  /** The key of an auto-registered device (local development only, see auto-register.ts). */
  deviceKey: (tenant: number, fleet: number, device: number) => `warden/fleet/${tenant}/${fleet}/device/${device}/key`,
  /** What devices send: `.../device/<device_id>/heartbeat`, `.../register` and (auto-registration) `.../enroll`. */
  inbound: 'warden/fleet/+/+/device/+/+',
};

/** The address and kind of an inbound topic, or undefined when it is not one. */
export function parseInboundTopic(topic: string): { tenant_id: number; fleet_id: number; device_id: number; kind: string } | undefined {
  const match = /^warden\/fleet\/(\d{1,5})\/(\d{1,5})\/device\/(\d{1,10})\/(heartbeat|register|enroll)$/.exec(topic);
  if (!match) return undefined;
  const [tenant, fleet, device] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (tenant > 0xffff || fleet > 0xffff || device > 0xffffffff || device === 0) return undefined;
  return { tenant_id: tenant, fleet_id: fleet, device_id: device, kind: match[4]! };
}

/** The MQTT broker cannot be reached to publish. */
export class MqttUnavailable extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_FLEET_MQTT_UNAVAILABLE', message, { statusCode: 503 });
  }
}

/** The broker answered the publication with an MQTT 5 failure reason code (an ACL denial: 0x87 Not authorized). */
export class MqttRefused extends WardenError {
  constructor(readonly reasonCode: number) {
    super('WARDEN_ERR_FLEET_MQTT_REFUSED', `MQTT broker refused the publication: reason code 0x${reasonCode.toString(16)} (${(ReasonCodes as Record<number, string>)[reasonCode] ?? 'unknown'})`);
  }
}

/** The API answer for a failed publication (spec document 2): 503 without a broker to take it, 500 when it refused it. */
export function publicationFailure(err: unknown): { status: 500 | 503; body: { error: string; detail: string } } {
  const detail = (err as Error).message;
  return err instanceof MqttUnavailable ? { status: 503, body: { error: 'MQTT broker unavailable', detail } } : { status: 500, body: { error: 'distribution failed', detail } };
}

export interface MqttOptions {
  /** An external broker, possibly with userinfo; empty: the embedded broker, when `embedded`. */
  url: string;
  embedded: boolean;
  /** 0: any free port. */
  embeddedPort: number;
  /** Towards an external broker: 5 so that a refusal comes back as a PUBACK reason code (3.1.1 has none). */
  protocolVersion: 4 | 5;
  /** Broker credentials (external broker only); they take precedence over userinfo in `url`. */
  username: string;
  password: string | undefined;
}

const PUBLISH_TIMEOUT_MS = FLEET_LIMITS.publishTimeoutMs;
const CLIENT_OPTIONS = { clientId: `warden-gateway-${process.pid}`, reconnectPeriod: 1000, connectTimeout: 5000 };

export class FleetMqtt {
  /** Why the client last failed to connect, for the 503 detail (a refused login looks like a dead broker otherwise). */
  private lastError: string | undefined;

  private constructor(
    private readonly client: MqttClient,
    private readonly embedded: { broker: Aedes; server: Server } | undefined,
    /** Where devices connect (the embedded broker's address when embedded), without credentials. */
    readonly url: string,
  ) {
    client.on('error', (err) => (this.lastError = err.message));
    client.on('connect', () => (this.lastError = undefined));
  }

  /** Connects to `url`, or starts the embedded broker; undefined when there is neither. */
  static async start(options: MqttOptions): Promise<FleetMqtt | undefined> {
    if (options.url) {
      const broker = splitBrokerUrl(options.url);
      const username = options.username || broker.username;
      const password = options.password || broker.password;
      if (password && !username) throw new Error('a broker password is set (WARDEN_FLEET_MQTT_PASSWORD) without a user name (fleet.mqtt.username)');
      const client = mqtt.connect(broker.url, { ...CLIENT_OPTIONS, protocolVersion: options.protocolVersion, username, password });
      return new FleetMqtt(client, undefined, broker.url);
    }
    if (!options.embedded) return undefined;
    const broker = await Aedes.createBroker();
    const server = createServer(broker.handle);
    server.listen(options.embeddedPort, '127.0.0.1');
    await once(server, 'listening');
    const url = `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`;
    // aedes speaks MQTT 3.1.1 only.
    return new FleetMqtt(mqtt.connect(url, { ...CLIENT_OPTIONS, protocolVersion: 4 }), { broker, server }, url);
  }

  /**
   * QoS 1; resolves on the broker's PUBACK. Rejects with MqttRefused when the PUBACK carries a failure reason
   * code (MQTT 5), with MqttUnavailable when the broker is not connected in time, does not acknowledge in time,
   * or drops the connection first (how aedes refuses a publication; MQTT 3.1.1 has no other way to say no).
   */
  async publish(topic: string, payload: Buffer): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new MqttUnavailable(this.client.connected
        ? 'MQTT broker did not acknowledge the publication in time'
        : `MQTT broker not connected${this.lastError ? `: ${this.lastError}` : ''}`)), PUBLISH_TIMEOUT_MS);
    });
    let onClose: (() => void) | undefined;
    let callback: ((err?: Error) => void) | undefined;
    try {
      if (!this.client.connected) {
        await Promise.race([new Promise<void>((resolve) => this.client.once('connect', () => resolve())), deadline]);
      }
      const closed = new Promise<never>((_, reject) => {
        onClose = () => reject(new MqttUnavailable('MQTT broker closed the connection before acknowledging the publication'));
        this.client.once('close', onClose);
      });
      const acknowledged = new Promise<void>((resolve, reject) => {
        callback = (err) => (err ? reject(refusal(err)) : resolve());
        this.client.publish(topic, payload, { qos: 1 }, callback);
      });
      await Promise.race([acknowledged, deadline, closed]);
    } catch (err) {
      if (err instanceof MqttUnavailable && callback) this.withdraw(callback);
      throw err;
    } finally {
      clearTimeout(timer);
      if (onClose) this.client.removeListener('close', onClose);
    }
  }

  /**
   * Drops a publication we answered as failed from the client's queue. mqtt.js resends unacknowledged QoS 1
   * messages on reconnect: a failure answered to the API would turn into a late delivery, and a broker that
   * refuses by dropping the connection would drop it again on every reconnect.
   */
  private withdraw(callback: (err?: Error) => void): void {
    for (const [id, pending] of Object.entries(this.client.outgoing)) {
      if (pending.cb === callback) this.client.removeOutgoingMessage(Number(id));
    }
  }

  /** Calls `handler` for every message on the inbound device topics (QoS 1 subscription). */
  async subscribeInbound(handler: (topic: string, payload: Buffer) => void): Promise<void> {
    this.client.on('message', handler);
    await this.client.subscribeAsync(topics.inbound, { qos: 1 });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
    if (this.embedded) {
      await new Promise<void>((resolve) => this.embedded!.broker.close(() => resolve()));
      await new Promise<void>((resolve) => this.embedded!.server.close(() => resolve()));
    }
  }
}

/** mqtt.js reports a failure reason code in the PUBACK as an error carrying the numeric `code`. */
function refusal(err: Error): Error {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? new MqttRefused(code) : err;
}
