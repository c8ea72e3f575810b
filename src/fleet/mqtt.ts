// The fleet's MQTT side: the broker devices connect to (fleet.mqtt.url, or an embedded aedes broker on
// 127.0.0.1 so the fleet works out of the box) and the gateway's own client that publishes to it. A publish
// resolves when the broker acknowledged it (QoS 1 PUBACK): broker acceptance, never device receipt.
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';

/** Per-fleet topics (documented in docs/fleet-wire.md). */
export const topics = {
  policy: (tenant: number, fleet: number) => `warden/fleet/${tenant}/${fleet}/policy`,
  emergency: (tenant: number, fleet: number) => `warden/fleet/${tenant}/${fleet}/emergency`,
  revoke: (tenant: number, fleet: number) => `warden/fleet/${tenant}/${fleet}/revoke`,
  /** Replies to one device: missed emergency frames, a newer policy. */
  deviceEmergency: (tenant: number, fleet: number, device: number) => `warden/fleet/${tenant}/${fleet}/device/${device}/emergency`,
  devicePolicy: (tenant: number, fleet: number, device: number) => `warden/fleet/${tenant}/${fleet}/device/${device}/policy`,
  /** What devices send: `.../device/<device_id>/heartbeat` and `.../register`. */
  inbound: 'warden/fleet/+/+/device/+/+',
};

/** The address and kind of an inbound topic, or undefined when it is not one. */
export function parseInboundTopic(topic: string): { tenant_id: number; fleet_id: number; device_id: number; kind: string } | undefined {
  const match = /^warden\/fleet\/(\d{1,5})\/(\d{1,5})\/device\/(\d{1,10})\/(heartbeat|register)$/.exec(topic);
  if (!match) return undefined;
  const [tenant, fleet, device] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (tenant > 0xffff || fleet > 0xffff || device > 0xffffffff || device === 0) return undefined;
  return { tenant_id: tenant, fleet_id: fleet, device_id: device, kind: match[4]! };
}

export class MqttUnavailable extends Error {
  override readonly name = 'MqttUnavailable';
}

const PUBLISH_TIMEOUT_MS = 5_000;

export class FleetMqtt {
  private constructor(
    private readonly client: MqttClient,
    private readonly embedded: { broker: Aedes; server: Server } | undefined,
    /** Where devices connect (the embedded broker's address when embedded). */
    readonly url: string,
  ) {}

  /** Connects to `url`, or starts the embedded broker on `embeddedPort` (0: any free port). */
  static async start(options: { url: string; embedded: boolean; embeddedPort: number }): Promise<FleetMqtt | undefined> {
    let embedded: { broker: Aedes; server: Server } | undefined;
    let url = options.url;
    if (!url) {
      if (!options.embedded) return undefined;
      const broker = await Aedes.createBroker();
      const server = createServer(broker.handle);
      server.listen(options.embeddedPort, '127.0.0.1');
      await once(server, 'listening');
      embedded = { broker, server };
      url = `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`;
    }
    const client = mqtt.connect(url, { clientId: `warden-gateway-${process.pid}`, reconnectPeriod: 1000, connectTimeout: 5000 });
    return new FleetMqtt(client, embedded, url);
  }

  /** QoS 1; resolves on the broker's PUBACK, rejects when there is none in time or the broker refuses. */
  async publish(topic: string, payload: Buffer): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new MqttUnavailable('MQTT broker did not acknowledge the publication in time')), PUBLISH_TIMEOUT_MS);
    });
    try {
      if (!this.client.connected) {
        await Promise.race([new Promise<void>((resolve) => this.client.once('connect', () => resolve())), deadline]);
      }
      await Promise.race([this.client.publishAsync(topic, payload, { qos: 1 }), deadline]);
    } finally {
      clearTimeout(timer);
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
