// Command lines that are chain steps, as small readable tables of shapes, plus the few checks a table cannot
// express (who sudo runs, where ssh connects). A shape is written like the command itself:
//   'aws ssm get-parameter* --with-decryption'
// The first word lists program names; the other words must appear among the arguments, words in this order
// (anything in between is skipped, so `vault kv get -mount=secret app` is `vault kv get`), options anywhere.
// `a|b` means either, `x*` a prefix, `*x*` a substring.
import type { CommandFact } from '../facts/types.js';
import { hostOfAddress, isRemoteOperand } from '../facts/urls.js';
import { isThisMachine } from './hosts.js';

interface Shape {
  names: readonly string[];
  words: readonly ((arg: string) => boolean)[];
  options: readonly ((arg: string) => boolean)[];
}

function word(spec: string): (arg: string) => boolean {
  const alternatives = spec.split('|');
  return (arg) =>
    alternatives.some((a) => {
      if (!a.endsWith('*')) return arg === a;
      return a.startsWith('*') ? arg.includes(a.slice(1, -1)) : arg.startsWith(a.slice(0, -1));
    });
}

function shapes(...specs: string[]): Shape[] {
  return specs.map((spec) => {
    const [names = '', ...rest] = spec.split(' ');
    return {
      names: names.split('|'),
      words: rest.filter((w) => !w.startsWith('-')).map(word),
      options: rest.filter((w) => w.startsWith('-')).map(word),
    };
  });
}

function fits(command: CommandFact, shape: Shape): boolean {
  if (!shape.names.includes(command.name)) return false;
  let next = 0;
  for (const arg of command.args) if (next < shape.words.length && shape.words[next]!(arg)) next++;
  return next === shape.words.length && shape.options.every((option) => command.args.some(option));
}

export function anyFits(commands: readonly CommandFact[], table: readonly Shape[]): boolean {
  return commands.some((c) => table.some((shape) => fits(c, shape)));
}

export const SECRET_MANAGER_READS = shapes(
  'vault kv get',
  'vault read',
  'aws secretsmanager get-secret-value|batch-get-secret-value',
  'aws ssm get-parameter* --with-decryption',
  'gcloud secrets versions access',
  'az keyvault secret show|download',
  'op read',
  'op item|document get',
  'kubectl|oc get secret*',
  'doppler secrets',
  'sops -d|--decrypt',
  'infisical secrets|export',
);

export const WORKLOAD_IDENTITY_COMMANDS = shapes(
  'aws sts get-caller-identity|assume-role*|get-session-token|get-federation-token',
  'gcloud auth print-access-token|print-identity-token',
  'gcloud auth application-default print-access-token',
  'az account get-access-token',
);

export const LATERAL_COMMANDS = shapes(
  'kubectl|oc exec|attach|debug',
  'docker|podman|nerdctl exec',
  'docker|podman -H*|--host*',
  'aws ssm send-command|start-session',
  'aws ecs execute-command',
  'gcloud compute ssh|scp',
  'az vm run-command',
  'az ssh vm',
  'psexec|psexec.exe|psexec64.exe|paexec|winrs|winrm|evil-winrm',
  'impacket-psexec|impacket-wmiexec|impacket-smbexec|psexec.py|wmiexec.py|smbexec.py',
);

export const PRIVILEGE_DISCOVERY_COMMANDS = shapes(
  'getcap -r*',
  'linpeas|linpeas.sh|linenum.sh|lse.sh|les.sh|linux-exploit-suggester.sh',
);

/** Switching off Warden itself, or the security tools around the agent. */
export const GUARDRAILS_OFF = shapes(
  'warden|warden-gateway stop|uninstall|disable|remove',
  'pkill|killall *warden*',
  'systemctl|service|launchctl stop|disable|mask|unload|bootout *warden*',
  'rm|mv|shred *.warden*',
  'ufw disable',
  'setenforce 0|permissive|Permissive',
  'systemctl|service stop|disable|mask auditd*|falcon-sensor*|osqueryd*|wazuh-agent*|apparmor*|firewalld*',
  'auditctl -D',
  'csrutil disable',
  'spctl --master-disable',
);

/** Commands whose arguments are text: `grep -- --yolo docs/` mentions a flag without using it. */
const TEXT_COMMANDS = new Set(['echo', 'printf', 'grep', 'egrep', 'rg', 'ag', 'ack']);
const AGENTS = new Set(['claude', 'codex', 'gemini', 'qwen', 'cursor-agent', 'opencode', 'amp', 'aider', 'goose', 'copilot', 'crush', 'droid']);
const BYPASS_OPTIONS = word('--dangerously-*|--allow-dangerously-*|--permission-mode=bypassPermissions');
const AGENT_BYPASS_OPTIONS = word('--yolo|--no-sandbox|--yes-always|--sandbox=danger-full-access|--approval-mode=yolo|bypassPermissions');

/** An agent started without its approvals or sandbox. */
export function bypassesAgentGuards(c: CommandFact): boolean {
  if (TEXT_COMMANDS.has(c.name)) return false;
  return c.args.some(BYPASS_OPTIONS) || (AGENTS.has(c.name) && c.args.some(AGENT_BYPASS_OPTIONS));
}

/** `git commit --no-verify` and the like: the repository's own checks skipped. */
export function skipsHooks(c: CommandFact): boolean {
  return !TEXT_COMMANDS.has(c.name) && c.args.includes('--no-verify');
}

/** Getting around a file permission instead of asking for it. */
export const PERMISSION_CHANGERS = new Set(['chmod', 'chown', 'chgrp', 'setfacl', 'chattr']);

/** `chmod u+s`, `chmod 4755`: a program that runs as its owner whoever starts it. */
export function setsSetuid(c: CommandFact): boolean {
  return c.name === 'chmod' && c.args.some((a) => /^[uoa]*[+=][rwxXt]*s|^0?[4-7][0-7]{3}$/.test(a));
}

/** Programs that run a command as another user. */
const ELEVATORS = new Set(['su', 'pkexec', 'doas', 'run0', 'sudoedit', 'runas']);
const SUDO_VALUE_OPTIONS = 'CDghpRrTtUu';
const SUDO_LISTS = /^-[A-Za-z]*l|^--list$/;
const SUDO_SHELL = /^-[A-Za-z]*[is]|^--(login|shell)$/;

/** sudo's own options (not those of the command it runs), and whether a command follows them. */
function sudoInvocation(args: readonly string[]): { options: string[]; runs: boolean } {
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return { options, runs: i + 1 < args.length };
    if (!arg.startsWith('-')) return { options, runs: true };
    options.push(arg);
    if (arg.length === 2 && SUDO_VALUE_OPTIONS.includes(arg[1]!)) i++;
  }
  return { options, runs: false };
}

/** `sudo -l`: what may this user run as root? */
export function listsSudoRights(c: CommandFact): boolean {
  return c.name === 'sudo' && sudoInvocation(c.args).options.some((o) => SUDO_LISTS.test(o));
}

/** su, pkexec, doas …, and sudo when it runs a command or a shell (not `sudo -l`, `sudo -v`, `sudo -k`). */
export function elevates(c: CommandFact): boolean {
  if (ELEVATORS.has(c.name)) return true;
  if (c.name !== 'sudo' || listsSudoRights(c)) return false;
  const { options, runs } = sudoInvocation(c.args);
  return runs || options.some((o) => SUDO_SHELL.test(o));
}

/** `id` shows the groups (sudo, wheel, docker) a user can use; `id -u` / `id -g` only feed file ownership. */
export function listsIdentity(c: CommandFact): boolean {
  return c.name === 'id' && !c.args.some((a) => /^-[nr]*[ug][nr]*$/.test(a));
}

/** `find / -perm -4000`, `-perm /u=s`, `-perm -g=s`: looking for setuid and setgid programs. */
export function findsSetuid(c: CommandFact): boolean {
  const perm = c.args.indexOf('-perm');
  return c.name === 'find' && perm >= 0 && /^[-/+]?(?:0?[2467]000|[ug]=s|u\+s)$/.test(c.args[perm + 1] ?? '');
}

/** ssh (and sftp) options that take a value, so the destination is the first operand after them. */
const SSH_VALUE_OPTIONS = 'BbcDEeFIiJLlmOoPpQRSWw';
const REMOTE_SHELLS = new Set(['ssh', 'mosh', 'sftp']);
const REMOTE_COPY = new Set(['scp', 'rsync']);

/** ssh, mosh, scp, rsync or sftp with a destination on another machine (private hosts included: that is
 *  where lateral movement goes). */
export function reachesRemoteHost(c: CommandFact): boolean {
  if (REMOTE_SHELLS.has(c.name)) {
    for (let i = 0; i < c.args.length; i++) {
      const arg = c.args[i]!;
      if (!arg.startsWith('-')) return !isThisMachine(hostOfAddress(arg));
      if (arg.length === 2 && SSH_VALUE_OPTIONS.includes(arg[1]!)) i++;
    }
    return false;
  }
  return REMOTE_COPY.has(c.name) && c.args.some((a) => !a.startsWith('-') && isRemoteOperand(a) && !isThisMachine(hostOfAddress(a)));
}
