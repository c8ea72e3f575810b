// Source and sink helpers shared by the language evaluators: environment reads, file reads and writes,
// decoders and HTTP requests, each turning a recognised library call into a value or a sink report.
import { isBenignEnv, isCredentialContainer, isCredentialKey, isSecretEnvName, persistenceTarget, sensitiveRead, UNKNOWN } from './catalog.js';
import type { Analysis, FunctionSummary } from './engine.js';
import type { Role, SinkSite } from './rules.js';
import { decodeText, type Codec } from './decode.js';
import { EMPTY, mark, sourced, union, type Value } from './values.js';

/** One environment variable; benign ones (HOME, PATH…) carry only their conventional text. */
export function envVar(nameText: string | undefined, label: string, at: string): Value {
  const name = nameText !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(nameText) ? nameText : undefined;
  if (name && isBenignEnv(name)) return { flows: [], text: name === 'HOME' || name === 'USERPROFILE' ? '~' : `$${name}` };
  return sourced({ kind: 'env', label, at, secret: name ? isSecretEnvName(name) : false });
}

/** The environment mapping itself (os.environ, process.env): the whole environment until indexed. */
export const envMapping = (label: string, at: string): Value => sourced({ kind: 'env_dump', label, at }, { kind: 'env_mapping' });

export const userInput = (label: string, at: string): Value => sourced({ kind: 'user_input', label, at });

/** An element of a container value; `sys.argv[0]` / `process.argv[0..1]` are the interpreter and script,
 *  not user input; a literal list yields its element. */
export function elementOf(base: Value, key: string | undefined): Value {
  const argv = base.flows.length === 1 && base.flows[0]!.source.kind === 'user_input' ? base.flows[0]!.source.label : undefined;
  if ((argv === 'sys.argv' && key === '0') || (argv === 'process.argv' && (key === '0' || key === '1'))) return { flows: [], text: 'script' };
  const index = key !== undefined && /^\d+$/.test(key) ? Number(key) : undefined;
  if (index !== undefined && base.items?.[index]) return base.items[index];
  return (key !== undefined ? base.props?.get(key) : undefined) ?? { flows: base.flows };
}

export const networkResponse = (label: string, at: string, live = false): Value => sourced({ kind: 'network', label, at, ...(live ? { live } : {}) });

/** Decoder output: the input's flows marked decoded, plus a `decoded` source (decoding a literal blob counts);
 *  with the decoded text when the input is a known literal and `codec` says how to decode it. */
export function decoded(input: Value | undefined, label: string, at: string, codec?: Codec): Value {
  const flows = union(mark(input ?? EMPTY, { decoded: true }), sourced({ kind: 'decoded', label, at })).flows;
  return { flows, text: codec ? decodeText(input?.text, codec) : undefined };
}

/** Reading the file at `path`: a source when the path is a credential or sensitive file. */
export function fileRead(path: Value | undefined, at: string): Value {
  const kind = sensitiveRead(path?.text);
  if (!kind || !path?.text) return EMPTY;
  return sourced({ kind, label: path.text.split(UNKNOWN).join('…'), at });
}

/** An open file handle (`open(path, mode)`, `Path.open()`): its flows are its content when read. */
export function openFile(analysis: Analysis, site: SinkSite, path: Value | undefined, mode: string | undefined): Value {
  const writable = mode !== undefined && /[wax+]/.test(mode);
  if (writable) {
    writeFile(analysis, site, path, undefined);
    return { flows: [], kind: 'file', text: path?.text, writable: true };
  }
  return { ...fileRead(path, site.at), kind: 'file', text: path?.text, writable: false };
}

/** Writing `content` to `path`: a persistence finding for startup files and the like, and a note of
 *  downloaded content so running that file later is recognised. */
export function writeFile(analysis: Analysis, site: SinkSite, path: Value | undefined, content: Value | undefined): void {
  const target = persistenceTarget(path?.text);
  if (target && path?.text) analysis.persistence(site, path.text, target, content);
  if (content) analysis.recordDownload(path?.text, content);
}

/** Path texts joined with `/` (os.path.join, path.join, Path / 'x'); an absolute part restarts the path. */
export function joinPath(parts: readonly (Value | undefined)[]): Value {
  let text = '';
  for (const part of parts) {
    const t = part?.text ?? UNKNOWN;
    text = t.startsWith('/') || t.startsWith('~') || text === '' ? t : `${text.replace(/\/$/, '')}/${t}`;
  }
  return { ...union(...parts), text };
}

/** A value stored under `key` in a request: Authorization / X-Api-Key / auth= / token fields are credentials.
 *  A literal headers dict is not one as a whole: its credential keys are marked one by one, and any other
 *  header (`X-Data: <secret>`) stays payload. */
export function asCredential(value: Value, key: string): Value {
  if (/^headers?$/i.test(key)) return value.props ? value : mark(value, { credential: true });
  return isCredentialContainer(key) || isCredentialKey(key) ? mark(value, { credential: true }) : value;
}

/** The parts of an HTTP request as a library call spells them. */
export interface RequestParts {
  url?: Value;
  /** Extra destination text (a connection's host) put before the URL. */
  host?: string;
  body?: readonly (Value | undefined)[];
  credential?: readonly (Value | undefined)[];
  query?: readonly (Value | undefined)[];
}

/** Reports a request's data at its sink and returns the response (a network source). */
export function sendRequest(analysis: Analysis, site: SinkSite, parts: RequestParts, summary: FunctionSummary | undefined, live = false): Value {
  const report = (role: Role, values: readonly (Value | undefined)[] | undefined) => {
    for (const v of values ?? []) analysis.sink(site, role, v, summary);
  };
  // A URL that is a variable as a whole (`fetch(process.env.HOOK_URL)`) is where the request goes.
  const url = parts.url && (parts.url.text === undefined || parts.url.text === UNKNOWN) ? mark(parts.url, { destination: true }) : parts.url;
  report('url', [url]);
  report('url', parts.query);
  report('body', parts.body);
  // A headers dict with known keys is judged per key (its credential keys are already marked).
  for (const v of parts.credential ?? []) analysis.sink(site, v?.props ? 'body' : 'credential', v, summary);
  const what = live ? 'data received by' : 'response of';
  return networkResponse(`${what} ${site.api}${site.dest ? ` ${site.dest.split(UNKNOWN).join('…')}` : ''}`, site.at, live);
}

/** Destination text for a request: a connection host and/or the URL. */
export function destination(host: string | undefined, url: Value | undefined): string | undefined {
  if (host !== undefined && url?.text !== undefined && !/^[a-z]+:\/\//i.test(url.text)) return `${host}${url.text}`;
  return url?.text ?? host;
}
