#!/usr/bin/env node
// The egress forwarder that runs INSIDE a sandbox (dependency-free: it runs on the host's Node, mounted read-only).
// The sandbox's network namespace has loopback only; the one way out is the Unix socket of Warden's egress proxy,
// bound into the sandbox. This program listens on 127.0.0.1:<port> (where HTTP_PROXY points) and relays each
// connection byte for byte to that socket: it decides nothing and sees nothing the proxy does not.
//
//   node egress-forwarder.mjs <proxy-socket> <port>
//
// It is an init step of the sandbox: it returns once the listener accepts connections (a detached copy of itself
// keeps serving), so the harness started after it never races its first request against the forwarder's start.
/* global process -- a Node global (the lint config types only TypeScript) */
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const [socketPath, portText, mode] = process.argv.slice(2);
const port = Number(portText);
if (!socketPath || !Number.isInteger(port) || port < 1 || port > 65535) {
  process.stderr.write('usage: egress-forwarder.mjs <proxy-socket> <port>\n');
  process.exit(64);
}

if (mode === '--serve') {
  // allowHalfOpen on both sides: a client that has sent its request (FIN) still gets the answer.
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    const upstream = connect({ path: socketPath, allowHalfOpen: true });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.on('error', (err) => {
    process.stderr.write(`warden egress forwarder: ${err.message}\n`);
    process.exit(70);
  });
  server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
} else {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), socketPath, String(port), '--serve'], {
    detached: true, stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.once('data', () => {
    child.stdout.destroy();
    child.unref();
    process.exit(0);
  });
  child.once('exit', (code) => process.exit(code || 70));
}
