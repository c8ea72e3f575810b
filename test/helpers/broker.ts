// An external MQTT broker for fleet tests: Mosquitto when it is installed (CI installs it), otherwise an aedes
// broker, each on an ephemeral loopback port in its own process or server. WARDEN_TEST_BROKER=aedes forces
// the fallback, to exercise it on a machine that has Mosquitto.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';

export interface TestBroker {
  url: string;
  kind: 'mosquitto' | 'aedes';
  /** The newest MQTT version it speaks: what fleet.mqtt.protocol_version must be set to (aedes has no MQTT 5). */
  protocolVersion: 4 | 5;
  stop(): Promise<void>;
}

export interface TestBrokerOptions {
  /**
   * Clients may publish only under these topic prefixes (each ending in `/`) and may read everything. Mosquitto
   * refuses any other publication with PUBACK 0x87 to MQTT 5 clients (and drops it silently for 3.1.1 ones);
   * aedes refuses it by closing the connection.
   */
  writablePrefixes?: string[];
  /** Clients must log in with one of these user names and passwords; anonymous clients are refused. */
  users?: Record<string, string>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const hasMosquitto = () => spawnSync('sh', ['-c', 'command -v mosquitto'], { stdio: 'ignore' }).status === 0;

export async function startTestBroker(options: TestBrokerOptions = {}): Promise<TestBroker> {
  const port = await freePort();
  return process.env.WARDEN_TEST_BROKER !== 'aedes' && hasMosquitto() ? startMosquitto(port, options) : startAedes(port, options);
}

async function startMosquitto(port: number, options: TestBrokerOptions): Promise<TestBroker> {
  const dir = mkdtempSync(join(tmpdir(), 'warden-mosquitto-'));
  // Started as root, Mosquitto drops to its own user before it reads the ACL and password files.
  chmodSync(dir, 0o755);
  const conf = [`listener ${port} 127.0.0.1`, 'persistence false', `allow_anonymous ${options.users ? 'false' : 'true'}`];
  if (options.users) {
    const file = join(dir, 'passwd');
    writeFileSync(file, '', { mode: 0o644 });
    for (const [user, password] of Object.entries(options.users)) {
      const result = spawnSync('mosquitto_passwd', ['-b', file, user, password], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`mosquitto_passwd failed: ${result.stderr}`);
    }
    conf.push(`password_file ${file}`);
  }
  if (options.writablePrefixes) {
    // Lines before any `user` line are the anonymous client's; each user gets the same rules.
    const rules = [...options.writablePrefixes.map((prefix) => `topic write ${prefix}#`), 'topic read #'];
    const acl = [...rules, ...Object.keys(options.users ?? {}).flatMap((user) => [`user ${user}`, ...rules])];
    writeFileSync(join(dir, 'acl'), `${acl.join('\n')}\n`, { mode: 0o644 });
    conf.push(`acl_file ${join(dir, 'acl')}`);
  }
  writeFileSync(join(dir, 'mosquitto.conf'), `${conf.join('\n')}\n`, { mode: 0o644 });
  const proc = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  // Ready when the port accepts connections.
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null || i === 100) {
      proc.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`mosquitto did not start: ${log}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const probe = createServer().listen(port, '127.0.0.1');
      probe.once('error', () => resolve(true)).once('listening', () => probe.close(() => resolve(false)));
    });
    if (open) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    kind: 'mosquitto',
    protocolVersion: 5,
    async stop() {
      proc.kill('SIGTERM');
      if (proc.exitCode === null && proc.signalCode === null) await new Promise((r) => proc.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startAedes(port: number, options: TestBrokerOptions): Promise<TestBroker> {
  const { writablePrefixes, users } = options;
  const broker = await Aedes.createBroker({
    ...(users ? { authenticate: (_client, username, password, done) => done(null, username !== undefined && users[username] === password?.toString()) } : {}),
    ...(writablePrefixes ? {
      authorizePublish: (_client, packet, done) => done(writablePrefixes.some((prefix) => packet.topic.startsWith(prefix)) ? null : new Error(`publication to ${packet.topic} not authorized`)),
    } : {}),
  });
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${port}`,
    kind: 'aedes',
    protocolVersion: 4,
    async stop() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
