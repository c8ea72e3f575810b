// Local model servers on loopback: each port a signature names (and each of `ai_discovery.probe_ports`) is
// checked for a listener, then asked its API's list of models (`/api/tags` for Ollama, `/v1/models` for the
// OpenAI-compatible servers). A listener alone is weak evidence; an answer in the expected shape is strong. Only
// 127.0.0.1 is ever contacted, with a short timeout and a capped answer.
import { connect } from 'node:net';
import { asArray, asObject, asString, parseJson } from '../util/json.js';
import { DISCOVERY_LIMITS } from './limits.js';
import type { LocalModelSignature } from './packs.js';

export interface LocalServer {
  signature: LocalModelSignature;
  port: number;
  url: string;
  /** Whether the API answered in the signature's shape (else only the port listens). */
  answered: boolean;
  models: string[];
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(DISCOVERY_LIMITS.probeTimeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The model names the signature's probe reads from the port, or undefined when it does not answer so. */
async function probe(port: number, signature: LocalModelSignature): Promise<string[] | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${signature.probe.path}`, {
      signal: AbortSignal.timeout(DISCOVERY_LIMITS.probeTimeoutMs),
      redirect: 'manual',
      headers: { accept: 'application/json' },
    });
    if (!response.ok || !response.body) return undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Uint8Array).length;
      if (size > DISCOVERY_LIMITS.probeAnswerBytes) return undefined;
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    const list = asObject(parseJson(Buffer.concat(chunks).toString('utf8')))[signature.probe.list_key];
    if (!Array.isArray(list)) return undefined;
    return asArray(list).flatMap((entry) => asString(asObject(entry)[signature.probe.name_key]) ?? []).slice(0, DISCOVERY_LIMITS.modelsPerServer);
  } catch {
    return undefined;
  }
}

/**
 * The servers found: on a port a signature names, that signature's probe (the first of several that answers);
 * on an extra port, every signature's probe in pack order. A listener no probe recognises is reported on a
 * signature's own port (as that server, unconfirmed) and ignored on an extra port.
 */
export async function findLocalServers(signatures: readonly LocalModelSignature[], extraPorts: readonly number[]): Promise<LocalServer[]> {
  const ports = new Map<number, LocalModelSignature[]>();
  for (const signature of signatures) for (const port of signature.ports) ports.set(port, [...(ports.get(port) ?? []), signature]);
  for (const port of extraPorts) ports.set(port, [...(ports.get(port) ?? []), ...signatures]);
  const found = await Promise.all([...ports].map(async ([port, candidates]): Promise<LocalServer | undefined> => {
    if (!(await listening(port))) return undefined;
    const url = `http://127.0.0.1:${port}`;
    for (const signature of new Set(candidates)) {
      const models = await probe(port, signature);
      if (models) return { signature, port, url, answered: true, models };
    }
    const own = candidates.find((s) => s.ports.includes(port));
    return own ? { signature: own, port, url, answered: false, models: [] } : undefined;
  }));
  return found.filter((server): server is LocalServer => server !== undefined);
}
