// The Node.js / browser APIs the JavaScript evaluator understands, by qualified name (`child_process.exec`,
// `fs.readFileSync`, `axios.post`, `fetch`) or by method on a typed value (an axios instance, a ClientRequest,
// a socket, a write stream). Anything else is a plain call whose result carries its arguments' flows.
import type { Analysis } from './engine.js';
import {
  decoded, destination, envMapping, envVar, fileRead, joinPath, networkResponse, sendRequest, userInput, writeFile,
} from './library.js';
import { allArgs, type CallContext } from './scope.js';
import { EMPTY, literal, union, type Value } from './values.js';

const FS_LIBS = new Set(['fs', 'fs.promises', 'fs-extra', 'graceful-fs']);
const FS_READ = new Set(['readFileSync', 'readFile', 'createReadStream', 'readJson', 'readJsonSync']);
const FS_WRITE = new Set(['writeFileSync', 'writeFile', 'appendFileSync', 'appendFile', 'outputFile', 'outputFileSync', 'writeJson', 'writeJsonSync']);
const FS_MOVE = new Set(['copyFileSync', 'copyFile', 'cpSync', 'cp', 'renameSync', 'rename', 'symlinkSync', 'symlink', 'copySync', 'copy', 'moveSync', 'move']);
const ZLIB_DECODE = /^zlib\.(?:inflate|inflateRaw|gunzip|unzip|brotliDecompress)(?:Sync)?$/;
const VM_EXEC = new Set(['vm.runInContext', 'vm.runInNewContext', 'vm.runInThisContext', 'vm.compileFunction', 'new vm.Script', 'vm.Script', 'new Function', 'Function', 'eval']);
const NO_FLOW = /^(?:console\.|crypto\.|Math\.|Number$|parseInt$|parseFloat$|Boolean$|Array\.isArray$|fs\.(?:promises\.)?(?:existsSync|exists|statSync|stat|mkdirSync|mkdir|readdirSync|readdir|unlinkSync|rmSync|accessSync|access))/;

/** Names that are sources by themselves. */
export function jsGlobal(q: string, at: string): Value | undefined {
  switch (q) {
    case 'process.env':
      return envMapping('process.env', at);
    case 'process.argv':
    case 'Deno.args':
      return userInput(q, at);
    case 'process.stdin':
      return userInput('process.stdin', at);
    default:
      return undefined;
  }
}

export function jsLibraryCall(q: string, c: CallContext, a: Analysis): Value | undefined {
  const { args, at } = c;
  const arg0 = args.pos[0];
  if (NO_FLOW.test(q)) return EMPTY;
  if (VM_EXEC.has(q)) {
    const code = q.endsWith('Function') ? args.pos[args.pos.length - 1] : arg0;
    a.sink(c.site('exec', q.replace(/^new /, '')), 'code', allArgs(args), c.summary);
    a.code('javascript', code, c.site('exec', q.replace(/^new /, '')), c.summary);
    return union(arg0);
  }
  if ((q === 'setTimeout' || q === 'setInterval') && arg0?.text !== undefined) {
    a.sink(c.site('exec', q), 'code', arg0, c.summary);
    return EMPTY;
  }
  if (q === 'atob') return decoded(arg0, 'atob(…)', at, 'base64');
  if (ZLIB_DECODE.test(q)) return decoded(arg0, `${q}(…)`, at, 'zlib');
  if (q === 'String.fromCharCode' || q === 'unescape') return decoded(arg0, `${q}(…)`, at);
  const encoding = args.pos[1]?.text ?? '';
  if (q === 'Buffer.from' && /^(?:base64|base64url|hex)$/.test(encoding)) return decoded(arg0, `Buffer.from(…, '${encoding}')`, at, encoding === 'hex' ? 'hex' : 'base64');
  if (q === 'Deno.env.get') return envVar(arg0?.text, `Deno.env.get('${arg0?.text ?? '…'}')`, at);
  if (q === 'prompt' || q === 'readline-sync.question' || q === 'readlineSync.question') return userInput(`${q}()`, at);
  const dot = q.lastIndexOf('.');
  const lib = q.slice(0, dot);
  const fn = q.slice(dot + 1);
  if (FS_LIBS.has(lib)) return fsCall(fn, c, a, q);
  if (lib === 'child_process' || lib === 'execa' || q === 'execa' || lib === 'shelljs') return processCall(q, fn, c, a);
  return pathCall(q, c) ?? networkCall(q, c, a);
}

function fsCall(fn: string, c: CallContext, a: Analysis, q: string): Value | undefined {
  const [arg0, arg1] = c.args.pos;
  if (FS_READ.has(fn)) return fileRead(arg0, c.at);
  if (FS_WRITE.has(fn)) {
    writeFile(a, c.site('exec', q), arg0, arg1);
    return EMPTY;
  }
  if (FS_MOVE.has(fn)) {
    writeFile(a, c.site('exec', q), arg1, fileRead(arg0, c.at));
    return EMPTY;
  }
  if (fn === 'createWriteStream') {
    writeFile(a, c.site('exec', q), arg0, undefined);
    return { flows: [], kind: 'file', writable: true, text: arg0?.text };
  }
  return undefined;
}

/** child_process.exec(cmd) runs a shell; spawn(cmd, args, {shell}) / execFile run argv unless shell is set. */
function processCall(q: string, fn: string, c: CallContext, a: Analysis): Value | undefined {
  const [cmd, second, third] = c.args.pos;
  const options = second?.props ? second : third;
  const stdin = options?.props?.get('input');
  const site = c.site('exec', q);
  if (fn === 'exec' || fn === 'execSync' || fn === 'execaCommand' || fn === 'execaCommandSync' || lib(q) === 'shelljs') {
    return a.shellString(cmd ?? EMPTY, site, c.summary, stdin);
  }
  if (!/^(?:spawn|spawnSync|execFile|execFileSync|fork|execa|execaSync)$/.test(fn) && q !== 'execa') return undefined;
  const argv = [fn === 'fork' ? literal('node') : undefined, cmd ?? EMPTY, ...(second?.items ?? [])].filter((v): v is Value => v !== undefined);
  const shell = options?.props?.get('shell');
  if (shell && shell.text !== 'false') {
    const line = { ...union(...argv), text: argv.map((v) => v.text ?? '\u0000').join(' ') };
    return a.shellString(line, { ...site, api: `${q}({shell: true})` }, c.summary, stdin);
  }
  return a.argv(argv, site, c.summary, stdin);
}

const lib = (q: string): string => q.slice(0, q.lastIndexOf('.'));

function pathCall(q: string, c: CallContext): Value | undefined {
  const arg0 = c.args.pos[0];
  switch (q) {
    case 'path.join':
    case 'path.resolve':
    case 'path.normalize':
    case 'path.posix.join':
    case 'path.posix.resolve':
      return joinPath(c.args.pos);
    case 'os.homedir':
      return literal('~');
    case 'os.tmpdir':
      return literal('/tmp');
    case 'process.cwd':
      return literal('.');
    case 'path.dirname':
    case 'path.basename':
    case 'path.extname':
      return { flows: arg0?.flows ?? [] };
    case 'String':
    case 'encodeURIComponent':
    case 'encodeURI':
      return arg0 ? { flows: arg0.flows, text: arg0.text } : EMPTY;
    default:
      return undefined;
  }
}

/** The parts of an options / config object: payload, query, credentials; a non-literal object is payload
 *  (its header flows, if built from a literal elsewhere, are already marked as credentials). */
function configParts(config: Value | undefined): { body: Value[]; query: Value[]; credential: Value[]; url?: Value } {
  const props = config?.props;
  if (!config) return { body: [], query: [], credential: [] };
  if (!props) return { body: [config], query: [], credential: [] };
  const pick = (...keys: string[]) => keys.map((k) => props.get(k)).filter((v): v is Value => v !== undefined);
  return { body: pick('body', 'data', 'json', 'form'), query: pick('params', 'searchParams', 'query'), credential: pick('headers', 'auth'), url: props.get('url') };
}

function networkCall(q: string, c: CallContext, a: Analysis): Value | undefined {
  const [arg0, arg1] = c.args.pos;
  const send = (api: string, url: Value | undefined, parts: ReturnType<typeof configParts>, base?: string, extraBody: Value[] = []) =>
    sendRequest(a, c.site('network', api, destination(base, url)), { url, body: [...extraBody, ...parts.body], query: parts.query, credential: parts.credential }, c.summary);
  switch (q) {
    case 'fetch':
    case 'undici.fetch':
    case 'undici.request':
    case 'got':
      return send(q, arg0, configParts(arg1));
    case 'new Request':
    case 'Request': {
      const parts = configParts(arg1);
      return { flows: union(arg0, ...parts.body, ...parts.query, ...parts.credential).flows, text: arg0?.text };
    }
    case 'axios':
    case 'axios.request':
    case 'axios.default': {
      if (arg0?.props) {
        const parts = configParts(arg0);
        return send('axios', parts.url, parts);
      }
      return send('axios', arg0, configParts(arg1));
    }
    case 'axios.create':
      return { flows: [], kind: 'http_client', text: arg0?.props?.get('baseURL')?.text };
    case 'navigator.sendBeacon':
      return send(q, arg0, { body: [arg1 ?? EMPTY], query: [], credential: [] });
    case 'http.request':
    case 'https.request':
    case 'http.get':
    case 'https.get': {
      const options = arg0?.props ? arg0 : arg1?.props ? arg1 : undefined;
      const host = options?.props?.get('hostname')?.text ?? options?.props?.get('host')?.text;
      const dest = arg0?.props ? `${host ?? '\u0000'}${options?.props?.get('path')?.text ?? ''}` : arg0?.text;
      const parts = configParts(options);
      const response = sendRequest(a, c.site('network', q, dest), { url: arg0?.props ? options?.props?.get('path') : arg0, credential: parts.credential }, c.summary);
      return { ...response, kind: 'http_request', text: dest };
    }
    case 'net.connect':
    case 'net.createConnection':
    case 'tls.connect': {
      const host = arg0?.props ? arg0.props.get('host')?.text : typeof arg1?.text === 'string' ? arg1.text : undefined;
      return { ...networkResponse(`${q}()`, c.at, true), kind: 'socket', text: host };
    }
    case 'new WebSocket':
    case 'new ws':
    case 'new ws.WebSocket':
      return { ...networkResponse(`${q}()`, c.at, true), kind: 'socket', text: arg0?.text };
    case 'dns.lookup':
    case 'dns.resolve':
    case 'dns.resolve4':
    case 'dns.resolveTxt':
    case 'dns.promises.lookup':
    case 'dns.promises.resolve':
    case 'dns.promises.resolve4':
      return sendRequest(a, c.site('network', q, arg0?.text), { url: arg0 }, c.summary);
    default:
      break;
  }
  const dot = q.lastIndexOf('.');
  const library = q.slice(0, dot);
  const verb = q.slice(dot + 1);
  if (library === 'axios' || library === 'got') return httpVerb(q, verb, c, a, undefined);
  return undefined;
}

/** axios.get(url, config) / axios.post(url, data, config), and the same on axios.create() instances. */
function httpVerb(api: string, verb: string, c: CallContext, a: Analysis, base: string | undefined): Value | undefined {
  const [arg0, arg1, arg2] = c.args.pos;
  let url = arg0;
  let parts: ReturnType<typeof configParts>;
  if (verb === 'get' || verb === 'delete' || verb === 'head' || verb === 'options') parts = configParts(arg1);
  else if (verb === 'post' || verb === 'put' || verb === 'patch' || verb === 'postForm' || verb === 'putForm') {
    const config = configParts(arg2);
    parts = { ...config, body: [...(arg1 ? [arg1] : []), ...config.body] };
  } else if (verb === 'request') {
    parts = configParts(arg0);
    url = parts.url;
  } else return undefined;
  return sendRequest(a, c.site('network', api, destination(base, url)), { url, body: parts.body, query: parts.query, credential: parts.credential }, c.summary);
}

/** A method on a typed value: an axios instance's post(), a ClientRequest's write(), a socket's send(). */
export function jsMethodCall(method: string, c: CallContext, a: Analysis): Value | undefined {
  const receiver = c.receiver ?? EMPTY;
  const data = c.args.pos[0];
  if (method === 'toString' && !receiver.kind) return { flows: receiver.flows, text: receiver.text }; // Buffer → string
  switch (receiver.kind) {
    case 'env_mapping':
      return method === 'hasOwnProperty' ? EMPTY : receiver;
    case 'http_client':
      return httpVerb(`axios instance.${method}`, method, c, a, receiver.text);
    case 'http_request':
      if (method === 'write' || method === 'end') {
        sendRequest(a, c.site('network', `request.${method}`, receiver.text), { body: [data] }, c.summary);
        return EMPTY;
      }
      return method === 'setHeader' ? EMPTY : undefined;
    case 'socket':
      if (method === 'write' || method === 'end' || method === 'send') {
        sendRequest(a, c.site('network', `socket.${method}`, receiver.text), { body: [data] }, c.summary);
        return EMPTY;
      }
      return undefined;
    case 'file':
      if ((method === 'write' || method === 'end') && receiver.writable) a.recordDownload(receiver.text, data ?? EMPTY);
      return EMPTY;
    default:
      break;
  }
  // response.pipe(fs.createWriteStream(path)): the file now holds the response.
  if (method === 'pipe' && data?.kind === 'file' && data.writable) a.recordDownload(data.text, receiver);
  return undefined;
}
