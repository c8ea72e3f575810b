// The Python library calls the evaluator understands, by qualified name (`subprocess.run`, `requests.post`)
// or by method on a typed value (a requests.Session, an open file, os.environ). Anything else is a plain
// call whose result carries its arguments' flows.
import { sensitiveRead } from './catalog.js';
import type { Analysis } from './engine.js';
import {
  asCredential, decoded, destination, envMapping, envVar, fileRead, joinPath, networkResponse, openFile, sendRequest, userInput, writeFile,
} from './library.js';
import type { Codec } from './decode.js';
import { allArgs, argAt, type CallContext } from './scope.js';
import { EMPTY, literal, sourced, union, type Value } from './values.js';

const HTTP_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);
/** Keyword arguments of HTTP calls that are neither payload nor credential. */
const HTTP_NOISE = new Set(['timeout', 'verify', 'allow_redirects', 'follow_redirects', 'stream', 'proxies', 'proxy', 'method', 'ssl', 'cert', 'url', 'raise_for_status']);
const QUERY_KW = new Set(['params']);
/** Decoders, with the codec that decodes a literal argument statically where there is one. */
const DECODERS = new Map<string, Codec | undefined>([
  ['base64.b64decode', 'base64'], ['base64.urlsafe_b64decode', 'base64'], ['base64.standard_b64decode', 'base64'],
  ['base64.decodebytes', 'base64'], ['base64.decodestring', 'base64'], ['binascii.a2b_base64', 'base64'],
  ['base64.b16decode', 'hex'], ['binascii.unhexlify', 'hex'], ['binascii.a2b_hex', 'hex'], ['bytes.fromhex', 'hex'], ['bytearray.fromhex', 'hex'],
  ['zlib.decompress', 'zlib'], ['gzip.decompress', 'zlib'],
  ['base64.b32decode', undefined], ['base64.a85decode', undefined], ['base64.b85decode', undefined], ['bz2.decompress', undefined],
  ['lzma.decompress', undefined], ['chr', undefined],
]);
const USER_INPUT = new Set(['input', 'raw_input', 'getpass.getpass', 'fileinput.input', 'click.prompt', 'typer.prompt', 'rich.prompt.Prompt.ask', 'questionary.text']);
const NO_FLOW = new Set([
  'len', 'bool', 'int', 'float', 'isinstance', 'issubclass', 'type', 'id', 'hash', 'callable', 'hasattr', 'print', 'range', 'enumerate',
  'os.path.exists', 'os.path.isfile', 'os.path.isdir', 'os.path.getsize', 'os.path.getmtime', 'os.makedirs', 'os.mkdir', 'os.remove', 'os.unlink',
  'time.sleep', 'time.time', 'sys.exit',
]);
const SHELL_STRING = new Set(['os.system', 'os.popen', 'subprocess.getoutput', 'subprocess.getstatusoutput', 'commands.getoutput', 'asyncio.create_subprocess_shell']);
const SUBPROCESS = new Set(['subprocess.run', 'subprocess.call', 'subprocess.check_call', 'subprocess.check_output', 'subprocess.Popen']);
const CODE_EVAL = new Set(['eval', 'exec', 'compile', 'execfile', 'builtins.eval', 'builtins.exec', 'pickle.loads', 'pickle.load', 'dill.loads', 'cloudpickle.loads', 'marshal.loads']);
const FILE_MOVES = new Set(['shutil.copy', 'shutil.copy2', 'shutil.copyfile', 'shutil.move', 'shutil.copytree', 'os.rename', 'os.replace', 'os.symlink', 'os.link']);
const DUMPS = new Set(['json.dump', 'pickle.dump', 'yaml.dump', 'yaml.safe_dump', 'toml.dump', 'marshal.dump']);
const PATH_KEEP = new Set(['os.path.expanduser', 'os.path.expandvars', 'os.path.abspath', 'os.path.realpath', 'os.path.normpath', 'os.fspath', 'str', 'pathlib.Path.expanduser']);

/** Module-level names that are sources by themselves (not calls). */
export function pythonGlobal(q: string, at: string): Value | undefined {
  if (q === 'os.environ' || q === 'os.environb') return envMapping('os.environ', at);
  if (q === 'sys.argv') return userInput('sys.argv', at);
  if (q === 'sys.stdin' || q.startsWith('sys.stdin.')) return userInput('sys.stdin', at);
  if (q === 'flask.request' || q.startsWith('flask.request.')) return userInput('flask.request', at);
  if (q === 'sys.executable') return literal('python3');
  return undefined;
}

/** A call by qualified name; undefined when the name is not one we model. */
export function pythonLibraryCall(q: string, c: CallContext, a: Analysis): Value | undefined {
  const { args, at } = c;
  const arg0 = args.pos[0];
  if (q.startsWith('os.environ.') || q === 'os.getenv' || q === 'os.getenvb') {
    const method = q.slice(q.lastIndexOf('.') + 1);
    if (q === 'os.getenv' || q === 'os.getenvb' || method === 'get' || method === 'setdefault' || method === 'pop') {
      const name = argAt(args, 0, 'key')?.text;
      return union(envVar(name, `${q}('${name ?? '…'}')`, at), argAt(args, 1, 'default'));
    }
    return envMapping('os.environ', at);
  }
  const global = pythonGlobal(q, at);
  if (global && (q.startsWith('sys.stdin') || q.startsWith('flask.request'))) return global;
  if (USER_INPUT.has(q)) return userInput(`${q}()`, at);
  if (NO_FLOW.has(q) || q.startsWith('hashlib.') || q.startsWith('hmac.') || q.startsWith('logging.')) return EMPTY;
  if (DECODERS.has(q)) return decoded(arg0, `${q}(…)`, at, DECODERS.get(q));
  const encoding = q === 'codecs.decode' ? argAt(args, 1, 'encoding')?.text ?? '' : '';
  if (/rot|base64|hex|zlib|bz2/i.test(encoding)) {
    return decoded(arg0, `${q}(…, '${encoding}')`, at, /rot/i.test(encoding) ? 'rot13' : /base64/i.test(encoding) ? 'base64' : /hex/i.test(encoding) ? 'hex' : /zlib/i.test(encoding) ? 'zlib' : undefined);
  }
  if (CODE_EVAL.has(q)) {
    a.code('python', arg0, c.site('exec', q), c.summary);
    if (q === 'marshal.loads') return decoded(arg0, `${q}(…)`, at);
    return q === 'compile' && arg0 ? arg0 : union(arg0);
  }
  if (SHELL_STRING.has(q)) return a.shellString(arg0 ?? EMPTY, c.site('exec', q), c.summary);
  if (SUBPROCESS.has(q)) return subprocessCall(q, c, a);
  if (q === 'os.execv' || q === 'os.execvp' || q === 'os.execve' || q === 'os.execvpe') return a.argv(args.pos[1]?.items ?? [args.pos[1] ?? EMPTY], c.site('exec', q), c.summary);
  if (q === 'os.execl' || q === 'os.execlp' || q === 'os.execle') return a.argv(args.pos.slice(1), c.site('exec', q), c.summary);
  if (q === 'pty.spawn') return a.argv(arg0?.items ?? [arg0 ?? EMPTY], c.site('exec', q), c.summary);
  if (q === 'asyncio.create_subprocess_exec') return a.argv(args.pos, c.site('exec', q), c.summary);
  if (q === 'os.dup2' && arg0?.flows.some((f) => f.source.live)) {
    // The process's stdin now reads from the socket: a shell started after this runs what the peer sends.
    a.processStdin = arg0;
    return EMPTY;
  }
  if (q === 'runpy.run_path') {
    a.sink(c.site('exec', q), 'code', a.downloadAt(arg0?.text), c.summary);
    return EMPTY;
  }
  return fileCall(q, c, a) ?? networkCall(q, c, a);
}

function subprocessCall(q: string, c: CallContext, a: Analysis): Value {
  const command = argAt(c.args, 0, 'args') ?? EMPTY;
  const shell = c.args.kw.get('shell');
  const stdin = c.args.kw.get('input');
  const site = c.site('exec', `${q}${shell ? '(shell=True)' : ''}`);
  if (shell && shell.text !== 'False' && shell.text !== '0' && shell.text !== 'None') {
    const line = command.items ? { ...union(...command.items), text: command.items.map((i) => i.text ?? '\u0000').join(' ') } : command;
    return a.shellString(line, site, c.summary, stdin);
  }
  return a.argv(command.items ?? [command], site, c.summary, stdin);
}

function fileCall(q: string, c: CallContext, a: Analysis): Value | undefined {
  const { args } = c;
  const arg0 = args.pos[0];
  switch (q) {
    case 'open':
    case 'io.open':
    case 'codecs.open':
    case 'builtins.open':
    case 'aiofiles.open':
      return openFile(a, c.site('exec', q), argAt(args, 0, 'file'), argAt(args, 1, 'mode')?.text);
    case 'os.path.join':
    case 'posixpath.join':
      return joinPath(args.pos);
    case 'pathlib.Path':
    case 'pathlib.PurePath':
    case 'pathlib.PosixPath':
      return { ...joinPath(args.pos.length > 0 ? args.pos : [literal('.')]), kind: 'path' };
    case 'pathlib.Path.home':
      return { flows: [], text: '~', kind: 'path' };
    case 'pathlib.Path.cwd':
    case 'os.getcwd':
      return { flows: [], text: '.', kind: q === 'os.getcwd' ? undefined : 'path' };
    case 'urllib.request.urlretrieve':
    case 'urllib.urlretrieve':
    case 'wget.download': {
      const url = argAt(args, 0, 'url');
      const response = sendRequest(a, c.site('network', q, url?.text), { url }, c.summary);
      writeFile(a, c.site('exec', q), argAt(args, 1, 'filename') ?? argAt(args, 1, 'out'), response);
      return response;
    }
    case 'dotenv.dotenv_values':
    case 'dotenv.main.dotenv_values':
      return sourced({ kind: 'dotenv_file', label: `dotenv_values(${arg0?.text ?? '.env'})`, at: c.at });
    default:
      break;
  }
  if (PATH_KEEP.has(q)) return { flows: arg0?.flows ?? [], text: q === 'os.path.expanduser' && arg0?.text === '~' ? '~' : arg0?.text, kind: arg0?.kind === 'path' ? 'path' : undefined };
  if (FILE_MOVES.has(q)) {
    writeFile(a, c.site('exec', q), argAt(args, 1, 'dst'), fileRead(arg0, c.at));
    return EMPTY;
  }
  if (q === 'shutil.copyfileobj') {
    const handle = args.pos[1];
    if (handle?.kind === 'file' && handle.writable) a.recordDownload(handle.text, arg0 ?? EMPTY);
    return EMPTY;
  }
  if (DUMPS.has(q)) {
    const handle = args.pos[1];
    if (handle?.kind === 'file' && handle.writable) a.recordDownload(handle.text, arg0 ?? EMPTY);
    return EMPTY;
  }
  return undefined;
}

function networkCall(q: string, c: CallContext, a: Analysis): Value | undefined {
  const dot = q.lastIndexOf('.');
  const lib = q.slice(0, dot);
  const fn = q.slice(dot + 1);
  if ((lib === 'requests' || lib === 'requests.api' || lib === 'httpx') && HTTP_VERBS.has(fn)) return httpCall(q, c, a, 0);
  if (q === 'requests.request' || q === 'httpx.request' || q === 'httpx.stream' || q === 'aiohttp.request') return httpCall(q, c, a, 1);
  switch (q) {
    case 'urllib.request.urlopen':
    case 'urllib2.urlopen':
    case 'urllib.urlopen': {
      const url = argAt(c.args, 0, 'url');
      return sendRequest(a, c.site('network', q, url?.text), { url, body: [argAt(c.args, 1, 'data')] }, c.summary);
    }
    case 'urllib.request.Request':
    case 'urllib2.Request': {
      // A request object: carries its URL text; header flows stay marked as credentials when it is sent.
      const url = argAt(c.args, 0, 'url');
      return { flows: union(url, argAt(c.args, 1, 'data'), asCredential(argAt(c.args, 2, 'headers') ?? EMPTY, 'headers')).flows, text: url?.text };
    }
    case 'requests.Session':
    case 'requests.session':
    case 'httpx.Client':
    case 'httpx.AsyncClient':
    case 'aiohttp.ClientSession':
    case 'urllib3.PoolManager':
      return { flows: [], kind: 'http_client', text: c.args.kw.get('base_url')?.text };
    case 'http.client.HTTPConnection':
    case 'http.client.HTTPSConnection':
    case 'httplib.HTTPConnection':
    case 'httplib.HTTPSConnection':
      return { flows: [], kind: 'http_conn', text: argAt(c.args, 0, 'host')?.text };
    case 'socket.socket':
    case 'socket.create_connection':
    case 'websocket.create_connection':
    case 'websockets.connect':
      return { flows: [], kind: 'socket', text: q.startsWith('socket.') ? undefined : c.args.pos[0]?.text };
    case 'smtplib.SMTP':
    case 'smtplib.SMTP_SSL':
      return { flows: [], kind: 'mail_client', text: c.args.pos[0]?.text };
    case 'socket.gethostbyname':
    case 'socket.getaddrinfo':
    case 'dns.resolver.resolve':
    case 'dns.resolver.query': {
      // A DNS lookup of a name built from data sends that data to the name's authoritative server.
      const name = c.args.pos[0];
      return sendRequest(a, c.site('network', q, name?.text), { url: name }, c.summary);
    }
    default:
      return undefined;
  }
}

/** requests.post(url, data=…, json=…, params=…, headers=…) and the same shape elsewhere. */
function httpCall(api: string, c: CallContext, a: Analysis, urlIndex: number, base?: string): Value {
  const url = argAt(c.args, urlIndex, 'url');
  const body: (Value | undefined)[] = c.args.pos.slice(urlIndex + 1);
  const credential: Value[] = [];
  const query: Value[] = [];
  for (const [name, value] of c.args.kw) {
    if (name === 'headers' || name === 'auth' || name === 'cookies') credential.push(value);
    else if (QUERY_KW.has(name)) query.push(value);
    else if (!HTTP_NOISE.has(name)) body.push(value);
  }
  const site = c.site('network', api, destination(base, url));
  return sendRequest(a, site, { url, body, credential, query }, c.summary);
}

/** A method call on a value: its kind decides (a session's post(), a socket's send(), a file's write()). */
export function pythonMethodCall(method: string, c: CallContext, a: Analysis): Value | undefined {
  const receiver = c.receiver ?? EMPTY;
  const { args } = c;
  const arg0 = args.pos[0];
  switch (receiver.kind) {
    case 'env_mapping':
      if (method === 'get' || method === 'setdefault' || method === 'pop') {
        return union(envVar(arg0?.text, `os.environ.${method}('${arg0?.text ?? '…'}')`, c.at), args.pos[1]);
      }
      return receiver;
    case 'http_client':
      if (HTTP_VERBS.has(method) || method === 'ws_connect') return httpCall(`session.${method}`, c, a, 0, receiver.text);
      if (method === 'request' || method === 'stream' || method === 'urlopen') return httpCall(`session.${method}`, c, a, 1, receiver.text);
      if (method === 'send') return sendRequest(a, c.site('network', 'session.send', receiver.text), { body: [arg0] }, c.summary);
      return undefined;
    case 'http_conn':
      if (method === 'request') {
        const url = argAt(args, 1, 'url');
        const site = c.site('network', 'HTTPConnection.request', destination(receiver.text, url));
        sendRequest(a, site, { url, body: [argAt(args, 2, 'body')], credential: [argAt(args, 3, 'headers')] }, c.summary);
        return EMPTY;
      }
      if (method === 'send') return sendRequest(a, c.site('network', 'HTTPConnection.send', receiver.text), { body: [arg0] }, c.summary);
      if (method === 'getresponse') return networkResponse(`response from ${receiver.text ?? 'HTTPConnection'}`, c.at);
      return undefined;
    case 'socket':
      if (/^(?:send|sendall|sendto|sendmsg|write)$/.test(method)) return sendRequest(a, c.site('network', `socket.${method}`, receiver.text), { body: [arg0] }, c.summary);
      if (/^(?:recv|recvfrom|recv_into|read|makefile|fileno)$/.test(method)) return { ...networkResponse(`socket.${method}()`, c.at, true), kind: method === 'fileno' ? 'socket' : undefined };
      return EMPTY;
    case 'mail_client':
      if (method === 'sendmail' || method === 'send_message') return sendRequest(a, c.site('network', `smtplib.${method}`, receiver.text), { body: [method === 'sendmail' ? args.pos[2] : arg0] }, c.summary);
      return EMPTY;
    case 'file':
      if (method === 'write' || method === 'writelines') {
        if (receiver.writable) a.recordDownload(receiver.text, arg0 ?? EMPTY);
        return EMPTY;
      }
      return { flows: receiver.flows };
    case 'path':
      return pathMethod(method, c, a);
    default:
      break;
  }
  if (method === 'parse_args' || method === 'parse_known_args') return userInput('command-line arguments', c.at);
  if (method === 'decode' || method === 'encode') return { flows: receiver.flows, text: receiver.text };
  if (method === 'format' || method === 'format_map') return { flows: union(receiver, allArgs(args)).flows, text: receiver.text };
  if (/^(?:read|read_file|load|safe_load)$/.test(method) && args.pos.some((v) => sensitiveRead(v.text))) {
    return union(...args.pos.map((v) => fileRead(v, c.at)));
  }
  return undefined;
}

function pathMethod(method: string, c: CallContext, a: Analysis): Value | undefined {
  const path = c.receiver ?? EMPTY;
  const arg0 = c.args.pos[0];
  switch (method) {
    case 'read_text':
    case 'read_bytes':
      return fileRead(path, c.at);
    case 'open':
      return openFile(a, c.site('exec', 'Path.open'), path, argAt(c.args, 0, 'mode')?.text);
    case 'write_text':
    case 'write_bytes':
      writeFile(a, c.site('exec', `Path.${method}`), path, arg0);
      return EMPTY;
    case 'joinpath':
      return { ...joinPath([path, ...c.args.pos]), kind: 'path' };
    case 'expanduser':
    case 'resolve':
    case 'absolute':
    case 'with_name':
    case 'with_suffix':
      return path;
    case 'exists':
    case 'is_file':
    case 'is_dir':
    case 'mkdir':
    case 'touch':
    case 'unlink':
    case 'chmod':
    case 'stat':
      return EMPTY;
    default:
      return { flows: path.flows };
  }
}
