// Portkey's open-source AI gateway (@portkey-ai/gateway, a dev dependency) as a point of comparison for the
// proxy benchmark: both gateways forward to the same local mock OpenAI-compatible upstream, so the difference
// in throughput and latency is the cost each adds in front of it.
//
// Why things are the way they are (checked against the built build/start-server.js of 1.15.2):
// - It runs as a child process of the same Node binary, like the other servers in the benchmark, so it gets
//   its own event loop and the same share of the machine.
// - The port is only read as `--port=N`; `--port N` is silently ignored and it falls back to 8787, which may
//   be taken. It listens on every interface, and we talk to it on 127.0.0.1.
// - `--headless` leaves out the web UI (/public) and its live log stream (/log/stream). It does not silence
//   the start-up output: a console.clear(), a one-second spinner written with `\r`, and a banner. Stdout and
//   stderr are therefore piped and kept only as a short tail, shown if it fails to start.
// - There is no readiness line worth parsing (the banner comes after the spinner, a second after it already
//   listens), so readiness is an HTTP poll of GET /, which answers "AI Gateway says hey!".
// - Routing: `x-portkey-provider: openai` picks the OpenAI provider and `x-portkey-custom-host` replaces its
//   base URL (https://api.openai.com/v1) as a whole; the endpoint (/chat/completions) is appended to it, so
//   the custom host must include the `/v1`. The provider key goes in `Authorization: Bearer`, as for OpenAI.
//   Clients call Portkey's own `/v1/chat/completions`.
// - Custom hosts pass an SSRF filter: private and loopback addresses are refused unless listed in
//   TRUSTED_CUSTOM_HOSTS. Its default is "localhost,127.0.0.1,::1,host.docker.internal", but a value set in
//   the environment replaces that list, so we set it ourselves. IPv6 literals (`[::1]`) are refused whatever
//   the list says: the hostname check only allows [a-z0-9.-].
// - Its dependency range lets npm pick a newer @hono/node-server than it works with, so package.json pins
//   1.14.1 through `overrides`: from 1.14.2 on, the response headers Portkey appends to are immutable and
//   chat completions fail with 500 "Something went wrong" / "TypeError: immutable" (Portkey-AI/gateway#1389).
// - What it costs, by design rather than by accident: its stream reader (readStream in streamHandler.ts)
//   sleeps 25 ms before passing on the first SSE event of every stream, so its time to first byte is about
//   25 ms over the upstream's; later events are passed on as they come. Non-streamed answers are parsed and
//   serialised again, and its logging middleware clones and parses each /v1/ answer once more.
// - Known limit of 1.15.2, not worked around here: under many concurrent streams a stream can be cut short
//   ("Response object has been garbage collected", Portkey-AI/gateway#1659).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

export interface PortkeyGateway {
  /** Base URL of the gateway, without a trailing slash, e.g. "http://127.0.0.1:41234". */
  url: string;
  stop(): Promise<void>;
}

/** Hosts Portkey may forward to; replaces its default list, see the header comment. */
const TRUSTED_CUSTOM_HOSTS = ['localhost', '127.0.0.1'];
const READY_TIMEOUT_MS = 15_000;
const POLL_INTERVAL_MS = 100;
const KILL_AFTER_MS = 3_000;
/** How much child output to keep for error messages; the rest is dropped so a chatty child costs nothing. */
const TAIL_CHARS = 4_000;

/** A port that was free a moment ago: the OS picks it for a throwaway listener, which we close. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('could not get a free port');
  return address.port;
}

/** The last lines of the child's output, without the spinner's carriage returns and colour codes. */
function lastLines(output: string, count = 20): string {
  // eslint-disable-next-line no-control-regex -- ANSI escape sequences are exactly what we strip here
  const plain = output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  return plain
    .split(/[\r\n]+/)
    .map((line) => line.trimEnd())
    .filter((line) => line.length > 0)
    .slice(-count)
    .join('\n');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts node_modules/@portkey-ai/gateway/build/start-server.js headless on a free port (child process). Resolves once it answers HTTP. */
export async function startPortkey(): Promise<PortkeyGateway> {
  // Resolved like an import rather than by a path relative to this file, so a hoisted or nested install works.
  const script = createRequire(import.meta.url).resolve('@portkey-ai/gateway/build/start-server.js');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = { ...process.env, TRUSTED_CUSTOM_HOSTS: TRUSTED_CUSTOM_HOSTS.join(',') };
  // A Redis URL inherited from the shell would give Portkey a cache backend the other gateway does not have.
  delete env.REDIS_CONNECTION_STRING;

  const child = spawn(process.execPath, [script, `--port=${port}`, '--headless'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
  };
  // Always read both pipes: an unread pipe fills up and would eventually block the child on a write.
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  // Settles on 'error' too (a failed spawn emits no 'exit'), so neither stop() nor the poll waits in vain.
  let ended: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = `exited (${code ?? signal})`;
      resolve();
    });
    child.once('error', (error) => {
      ended = `could not run (${error.message})`;
      resolve();
    });
  });
  // If the benchmark dies without calling stop(), do not leave a gateway holding the port.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (ended !== undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    try {
      await exited;
    } finally {
      clearTimeout(timer);
    }
  };

  const fail = async (reason: string): Promise<never> => {
    await stop();
    const output = lastLines(tail);
    throw new Error(`Portkey gateway ${reason}${output ? `; its last output:\n${output}` : ' (no output)'}`);
  };

  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (ended !== undefined) return fail(`${ended} before answering on ${url}`);
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) return { url, stop };
    } catch {
      // Not listening yet: connection refused or the request timed out. Try again.
    }
    await sleep(POLL_INTERVAL_MS);
  }
  return fail(`did not answer GET ${url}/ within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * Headers that make Portkey forward an OpenAI chat completion to `upstreamBaseUrl` (e.g. "http://127.0.0.1:43210/v1"),
 * with `apiKey` as the provider key. Send the request to `${gateway.url}/v1/chat/completions`.
 *
 * Includes `content-type: application/json` (lower case): Portkey refuses other content types, and a second
 * `Content-Type` spelled differently would be joined into one value that it refuses too.
 */
export function portkeyHeaders(upstreamBaseUrl: string, apiKey: string): Record<string, string> {
  const { hostname } = new URL(upstreamBaseUrl);
  // This helper is for a local upstream, and any other loopback or private spelling gets a 400 "Invalid
  // custom host" from Portkey: the benchmark would then time error responses, so refuse it here instead.
  if (!TRUSTED_CUSTOM_HOSTS.includes(hostname)) {
    throw new Error(`upstream must be on ${TRUSTED_CUSTOM_HOSTS.join(' or ')} (trusted by startPortkey), not ${hostname}`);
  }
  return {
    'x-portkey-provider': 'openai',
    // Portkey appends "/chat/completions" as is, so a trailing slash would give "//chat/completions".
    'x-portkey-custom-host': upstreamBaseUrl.replace(/\/+$/, ''),
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
  };
}
