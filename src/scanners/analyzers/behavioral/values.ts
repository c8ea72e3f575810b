// The abstract values the taint evaluators compute: where data came from (flows), what string it is when that
// is known statically (for URLs, paths and shell commands), and what kind of object it is (an HTTP client, an
// open file, the environment mapping). Values are immutable; every operation returns a new one.
import { CREDENTIAL_PREFIX, UNKNOWN } from './catalog.js';

export type SourceKind =
  | 'env' // one environment variable
  | 'env_dump' // the whole environment
  | 'dotenv_file' // a .env file
  | 'credential_file' // ~/.ssh, ~/.aws/credentials, browser profiles…
  | 'sensitive_file' // /etc/passwd, shell history
  | 'user_input' // input(), argv, stdin, read
  | 'network' // a response body
  | 'decoded' // base64 / zlib / hex / chr() output
  | 'param'; // a function parameter, resolved at call sites

export interface Source {
  kind: SourceKind;
  /** What it is, as written: `os.environ['AWS_SECRET_ACCESS_KEY']`, `~/.ssh/id_rsa`, `input()`. */
  label: string;
  /** `file:line` where the source is read. */
  at: string;
  /** For `env`: the variable name looks like a secret. */
  secret?: boolean;
  /** For `param`: the parameter's position. */
  param?: number;
  /** For `network`: a live connection (socket, nc, /dev/tcp) rather than a downloaded body. */
  live?: boolean;
}

export interface Flow {
  source: Source;
  /** `file:line` steps after the source: assignments, calls, returns. */
  path: readonly string[];
  /** The data is used as a request credential (an Authorization header, `auth=`, `?api_key=`), not as payload. */
  credential: boolean;
  /** The data went through a decoder (base64, zlib, hex…). */
  decoded: boolean;
  /** The data is where a request goes (a whole URL, or the scheme/host part of one), not data sent there. */
  destination: boolean;
}

type Marks = Pick<Flow, 'credential' | 'decoded' | 'destination'>;
const NO_MARKS: Marks = { credential: false, decoded: false, destination: false };

/** `first` continued by a flow with marks `then` (a caller's argument through a callee's parameter flow):
 *  the source is `first`'s, the marks add up. */
export function continued(first: Flow, then: Marks, path: readonly string[]): Flow {
  return {
    source: first.source, path,
    credential: first.credential || then.credential,
    decoded: first.decoded || then.decoded,
    destination: first.destination || then.destination,
  };
}

/** A flow starting at `source`. */
export const flowFrom = (source: Source): Flow => ({ source, path: [], ...NO_MARKS });

export type ValueKind =
  | 'env_mapping' // os.environ / process.env itself
  | 'http_client' // requests.Session(), httpx.Client(), aiohttp.ClientSession(), axios.create()
  | 'http_conn' // http.client.HTTPSConnection(host)
  | 'http_request' // Node's http.request(): write()/end() send the body
  | 'socket' // socket.socket(), net.connect(), new WebSocket()
  | 'mail_client' // smtplib.SMTP()
  | 'file' // an open file; text is its path
  | 'path'; // a pathlib.Path; text is the path

export interface Value {
  readonly flows: readonly Flow[];
  /** The string value where statically known; UNKNOWN (NUL) marks the parts that are not. */
  readonly text?: string;
  readonly kind?: ValueKind;
  /** For kind `file`: opened for writing. */
  readonly writable?: boolean;
  /** Literal keys of a dict / object literal, one level deep. */
  readonly props?: ReadonlyMap<string, Value>;
  /** Elements of a list / tuple / array literal (argv lists). */
  readonly items?: readonly Value[];
}

export const EMPTY: Value = { flows: [] };
const MAX_FLOWS = 8;
const MAX_PATH = 12;
/** Long enough for an inline base64 payload to be decoded; string building past it keeps the start. */
const MAX_TEXT = 16 * 1024;

export const literal = (text: string): Value => ({ flows: [], text: text.slice(0, MAX_TEXT) });

export function sourced(source: Source, extra: Partial<Value> = {}): Value {
  return { ...extra, flows: [flowFrom(source)] };
}

function flowKey(flow: Flow): string {
  const s = flow.source;
  return `${s.kind}|${s.label}|${s.at}|${s.param ?? ''}|${flow.credential ? 1 : 0}${flow.decoded ? 1 : 0}${flow.destination ? 1 : 0}`;
}

/** The flows of all values, de-duplicated and capped (the first ones win: they are enough to report). */
export function mergeFlows(values: readonly (Value | undefined)[]): Flow[] {
  const out: Flow[] = [];
  let seen: Set<string> | undefined;
  for (const value of values) {
    if (!value) continue;
    for (const flow of value.flows) {
      if (out.length >= MAX_FLOWS) return out;
      if (out.length === 0 && !seen) {
        out.push(flow);
        continue;
      }
      seen ??= new Set(out.map(flowKey));
      const key = flowKey(flow);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(flow);
    }
  }
  return out;
}

/** The flows of all values with no string, kind or keys: the result of an operation we do not model. */
export function union(...values: (Value | undefined)[]): Value {
  const present = values.filter((v): v is Value => v !== undefined && v.flows.length > 0);
  if (present.length === 0) return EMPTY;
  if (present.length === 1) return { flows: present[0]!.flows };
  return { flows: mergeFlows(present) };
}

/** A weak update (in a branch or loop): the flows of both, the latest text and kind (a best effort: the
 *  text is used to recognise paths and hosts, and the latest assignment is the likelier one). */
export function widen(before: Value | undefined, after: Value): Value {
  if (!before || before === after || before.flows.length === 0) return after;
  return { ...after, flows: mergeFlows([after, before]) };
}

/** String concatenation: flows joined, text joined with UNKNOWN for parts not known. Interpolations that
 *  follow `Bearer ` or `?api_key=` are marked as credentials; those forming a URL's scheme/host
 *  (`f"{BASE}/v1"`, `"https://" + host + "/x"`) as its destination. */
export function concat(parts: readonly Value[]): Value {
  let text = '';
  const marked: Value[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.flows.length > 0 && CREDENTIAL_PREFIX.test(text.slice(-60))) marked.push(mark(part, { credential: true }));
    else if (part.flows.length > 0 && isUrlHead(text, parts[i + 1]?.text)) marked.push(mark(part, { destination: true }));
    else marked.push(part);
    text += part.text ?? UNKNOWN;
    if (text.length > MAX_TEXT) text = text.slice(0, MAX_TEXT);
  }
  return { flows: mergeFlows(marked), text };
}

/** Whether a part placed after `before` and followed by `after` is the scheme/host of a URL. */
function isUrlHead(before: string, after: string | undefined): boolean {
  if (before === '') return after !== undefined && /^[/:?]/.test(after);
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s@]*$/i.test(before);
}

/** The value with every flow marked (credential use, decoding, destination). */
export function mark(value: Value, marks: Partial<Marks>): Value {
  if (value.flows.length === 0) return value;
  return { ...value, flows: value.flows.map((f) => ({ ...f, ...marks })) };
}

/** The value with `at` appended to every flow's path (an assignment, a call, a return). */
export function step(value: Value, at: string): Value {
  if (value.flows.length === 0) return value;
  return { ...value, flows: value.flows.map((f) => ({ ...f, path: appendStep(f.path, at) })) };
}

export function appendStep(path: readonly string[], at: string): readonly string[] {
  if (path[path.length - 1] === at) return path;
  if (path.length >= MAX_PATH) return [...path.slice(0, MAX_PATH - 2), path[path.length - 1]!, at];
  return [...path, at];
}

export function joinPaths(a: readonly string[], b: readonly string[]): readonly string[] {
  let out = a;
  for (const at of b) out = appendStep(out, at);
  return out;
}

/** Only the flows and text: drops object kinds (an element taken out of a container, an attribute). */
export const plain = (value: Value): Value => (value.kind || value.props || value.items ? { flows: value.flows, text: value.text } : value);
