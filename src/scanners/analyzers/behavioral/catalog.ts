// What counts as sensitive for the behavioral analyzer, independent of language: secret-looking variable
// names, credential and persistence paths, exfiltration destinations and credential-carrying key names.
// Every test here runs on a best-effort string value where NUL stands for a part not known statically.

/** Marks the unknown parts of a statically assembled string (`f"{home}/.bashrc"` → `\0/.bashrc`). */
export const UNKNOWN = '\u0000';

/** Environment variables that are not secrets: reading them is not a source. */
const BENIGN_ENV = new Set([
  'HOME', 'USERPROFILE', 'PATH', 'PWD', 'OLDPWD', 'USER', 'USERNAME', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LANGUAGE',
  'TMPDIR', 'TMP', 'TEMP', 'HOSTNAME', 'EDITOR', 'VISUAL', 'PAGER', 'DISPLAY', 'TZ', 'CI', 'DEBUG', 'VERBOSE',
  'NODE_ENV', 'PYTHONPATH', 'VIRTUAL_ENV', 'SHLVL', 'COLUMNS', 'LINES', 'RANDOM', 'SECONDS', 'LINENO', 'BASH_SOURCE',
  'FUNCNAME', 'IFS', 'OSTYPE', 'HOSTTYPE', 'MACHTYPE', 'UID', 'EUID', 'PPID', 'BASHPID', 'PIPESTATUS', 'OPTARG', 'OPTIND',
  'PS1', 'PS4', 'NO_COLOR', 'FORCE_COLOR', 'LOG_LEVEL', 'PORT', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMFILES', 'SYSTEMROOT',
]);

export function isBenignEnv(name: string): boolean {
  return BENIGN_ENV.has(name) || name.startsWith('LC_') || name.startsWith('XDG_');
}

const SECRET_PARTS = new Set([
  'KEY', 'KEYS', 'APIKEY', 'TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PASS', 'PASSPHRASE', 'PWD',
  'CREDENTIAL', 'CREDENTIALS', 'CREDS', 'PRIVATE', 'AUTH', 'SESSION', 'COOKIE', 'DSN', 'PAT', 'WEBHOOK',
]);

/** `AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, `OPENAI_API_KEY`, `DATABASE_URL`… */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (/SECRET|TOKEN|PASSWORD|APIKEY|PRIVATE_?KEY|DATABASE_URL/.test(upper)) return true;
  return upper.split(/[^A-Z0-9]+/).some((part) => SECRET_PARTS.has(part));
}

/** Normalises a path text for matching: `\` → `/`, `${HOME}`/`$HOME`/`%USERPROFILE%` → `~`. */
export function normalisePath(text: string): string {
  return text
    .replace(/\\/g, '/')
    .replace(/\$\{?(?:HOME|USERPROFILE)\}?|%USERPROFILE%/g, '~')
    .replace(/["']/g, '');
}

export type SensitiveRead = 'credential_file' | 'dotenv_file' | 'sensitive_file';

const CREDENTIAL_PATHS: readonly RegExp[] = [
  /(?:^|\/)\.ssh(?:\/?$|\/(?!known_hosts$|[^/]*\.pub$))/,
  /(?:^|\/)\.aws\/(?:credentials|config)$/,
  /(?:^|\/)[._]netrc$/,
  /(?:^|\/)\.config\/gcloud(?:\/|$)/, /application_default_credentials\.json$/,
  /(?:^|\/)\.azure\//, /(?:^|\/)\.kube\/config$/, /(?:^|\/)\.docker\/config\.json$/,
  /(?:^|\/)\.npmrc$/, /(?:^|\/)\.pypirc$/, /(?:^|\/)\.git-credentials$/, /(?:^|\/)\.config\/gh\/hosts\.ya?ml$/,
  /(?:^|\/)\.gnupg\//, /(?:^|\/)\.password-store\//, /(?:^|\/)\.vault-token$/, /\.terraform\.d\/credentials/,
  /(?:^|\/)\.claude\/\.credentials\.json$/, /(?:^|\/)\.codex\/auth\.json$/,
  /Keychains?\//, /\.keychain(?:-db)?$/, /^\/etc\/(?:g?shadow|sudoers)$/,
  /(?:^|\/)(?:\.bitcoin|\.electrum|\.ethereum\/keystore|\.config\/solana)(?:\/|$)/, /wallet\.dat$/,
  // Browser profiles: saved passwords, cookies, the key that decrypts them.
  /(?:Google\/Chrome|google-chrome|chromium|BraveSoftware|Microsoft\/Edge|Mozilla\/Firefox|\.mozilla\/firefox|Opera Software|Vivaldi|Library\/Safari)(?:\/|$)/i,
  /(?:^|\/)(?:Login Data|Cookies|Web Data|Local State|key[34]\.db|logins\.json|cookies\.sqlite)$/,
];
const DOTENV = /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$)[\w.-]+)?$/;
const SENSITIVE_PATHS: readonly RegExp[] = [
  /^\/etc\/passwd$/, /(?:^|\/)\.(?:bash|zsh|python|psql|mysql|node_repl)_history$/, /(?:^|\/)\.ssh\//,
];

/** Whether reading `path` reads a secret, and which kind; undefined for ordinary files. */
export function sensitiveRead(path: string | undefined): SensitiveRead | undefined {
  if (!path) return undefined;
  const p = normalisePath(path);
  if (CREDENTIAL_PATHS.some((re) => re.test(p))) return 'credential_file';
  if (DOTENV.test(p)) return 'dotenv_file';
  if (SENSITIVE_PATHS.some((re) => re.test(p))) return 'sensitive_file';
  return undefined;
}

export type PersistenceKind = 'shell startup file' | 'crontab' | 'SSH access' | 'service or autostart entry' | 'agent configuration or another skill';

const PERSISTENCE: readonly [RegExp, PersistenceKind][] = [
  [/(?:^|\/)\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|cshrc|tcshrc|kshrc|mkshrc)$/, 'shell startup file'],
  [/(?:^|\/)\.config\/fish\/(?:config\.fish$|conf\.d\/)/, 'shell startup file'],
  [/^\/etc\/(?:profile$|profile\.d\/|bash\.bashrc$|zsh\/|environment$|rc\.local$)/, 'shell startup file'],
  [/(?:^|\/)(?:crontab|cron\.(?:d|daily|hourly|weekly|monthly))(?:\/|$)|\/var\/spool\/cron/, 'crontab'],
  [/(?:^|\/)\.ssh\/(?:authorized_keys2?|rc|config)$/, 'SSH access'],
  [/(?:^|\/)\.config\/(?:systemd\/user|autostart)\/|^\/etc\/(?:systemd\/|init\.d\/|sudoers)|Library\/Launch(?:Agents|Daemons)\//, 'service or autostart entry'],
  [/(?:^|\/)\.(?:claude|codex|cursor|gemini|windsurf|continue|agents?)\/(?:skills|hooks|agents|commands|rules)\/|(?:^|\/)\.claude\/settings(?:\.local)?\.json$|(?:^|\/)skills\/[^/]+\/SKILL\.md$/i, 'agent configuration or another skill'],
];

/** Which persistence location writing `path` touches, if any. */
export function persistenceTarget(path: string | undefined): PersistenceKind | undefined {
  if (!path) return undefined;
  const p = normalisePath(path);
  for (const [re, kind] of PERSISTENCE) if (re.test(p)) return kind;
  return undefined;
}

/** Hosts whose only common use from a script is receiving data: paste bins, request catchers, tunnels. */
const EXFIL_HOSTS = [
  'webhook.site', 'requestbin.com', 'requestbin.net', 'pipedream.net', 'pastebin.com', 'paste.ee', 'hastebin.com',
  'dpaste.com', 'dpaste.org', 'termbin.com', 'ix.io', '0x0.st', 'transfer.sh', 'file.io', 'ngrok.io', 'ngrok-free.app',
  'ngrok.app', 'ngrok.dev', 'trycloudflare.com', 'loca.lt', 'serveo.net', 'localhost.run', 'interact.sh', 'oast.fun',
  'oast.pro', 'oast.live', 'oast.site', 'oast.online', 'oast.me', 'burpcollaborator.net', 'oastify.com',
  'canarytokens.com', 'requestcatcher.com', 'beeceptor.com', 'hookbin.com', 'postb.in', 'ptsv2.com', 'ptsv3.com',
];
const EXFIL_URLS = /(?:discord(?:app)?\.com\/api\/webhooks\/|api\.telegram\.org\/bot)/i;

/** The host of a URL-ish text (`https://h:1/x`, `h:1`, `h`), or undefined when not known statically. */
function hostOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const t = text.trim().replace(/^["']/, '');
  const url = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s]*@)?(\[[^\]]+\]|[^/:?#\s"']+)/i.exec(t);
  const host = url ? url[1] : /^([a-z0-9.-]+\.[a-z0-9-]+|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:\/|$)/i.exec(t)?.[1];
  if (!host || host.includes(UNKNOWN)) return undefined;
  return host.toLowerCase();
}

/** A destination worth flagging on its own: a raw (non-loopback) IP address or a known exfiltration service. */
export function suspiciousDestination(text: string | undefined): string | undefined {
  if (!text) return undefined;
  if (EXFIL_URLS.test(text)) return 'a chat webhook / bot API';
  const host = hostOf(text);
  if (!host) return undefined;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) && !host.startsWith('127.') && host !== '0.0.0.0') return 'a raw IP address';
  if (host.startsWith('[') && host !== '[::1]') return 'a raw IP address';
  if (EXFIL_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))) return `a data-collection service (${host})`;
  return undefined;
}

/** Attributes that hold a client's credentials (`session.headers = …`, `session.auth = …`). */
export function isCredentialContainer(name: string): boolean {
  return /^(?:headers?|auth|authorization|cookies?)$/i.test(name);
}

/** Keys and keyword arguments whose value is a request credential rather than payload. */
export function isCredentialKey(key: string): boolean {
  const k = key.toLowerCase().replace(/_/g, '-');
  return /^(?:auth|authorization|proxy-authorization|x-api-key|api-key|apikey|x-auth-token|x-access-token|cookies?|private-token|bearer|access-token|token|key|client-secret|password|x-[a-z0-9-]*(?:key|token))$/.test(k);
}

/** Text just before an interpolation that makes it a credential: `Bearer `, `Authorization: `, `?api_key=`,
 *  `token=` in a form body, `"api_key": "` in a JSON body. */
export const CREDENTIAL_PREFIX =
  /(?:\b(?:authorization|proxy-authorization)\b\s*[:=]?\s*(?:bearer|token|basic)?\s*|\b(?:bearer|token|basic)\s+|(?:^|[?&;\s"'{,])(?:key|api[_-]?key|apikey|access[_-]?token|token|auth(?:[_-]?token)?|client[_-]?secret|password)=|["'](?:key|api[_-]?key|apiKey|access[_-]?token|token|client[_-]?secret|password)["']\s*:\s*["']?|\b(?:x-api-key|api-key|x-auth-token|private-token)\s*:\s*)$/i;
