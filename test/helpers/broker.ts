// An external MQTT broker for fleet tests: Mosquitto when it is installed (CI installs it), otherwise an aedes
// broker, each on an ephemeral loopback port in its own process or server.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';

export interface TestBroker {
  url: string;
  kind: 'mosquitto' | 'aedes';
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const hasMosquitto = () => spawnSync('sh', ['-c', 'command -v mosquitto'], { stdio: 'ignore' }).status === 0;

export async function startTestBroker(): Promise<TestBroker> {
  const port = await freePort();
  if (hasMosquitto()) {
    const dir = mkdtempSync(join(tmpdir(), 'warden-mosquitto-'));
    writeFileSync(join(dir, 'mosquitto.conf'), `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    const proc = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    // Ready when the port accepts connections.
    for (let i = 0; i < 100; i++) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = createServer().listen(port, '127.0.0.1');
        socket.once('error', () => resolve(true)).once('listening', () => socket.close(() => resolve(false)));
      });
      if (open) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return {
      url: `mqtt://127.0.0.1:${port}`,
      kind: 'mosquitto',
      async stop() {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `mqtt://127.0.0.1:${port}`,
    kind: 'aedes',
    async stop() {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
