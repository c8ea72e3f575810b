// The sandbox hook ingress: what a harness's hooks reach from inside its sandbox (spec step 11, "Hook ingress and
// tamper"). Each running sandbox gets its own Unix socket (listener.ts) in a folder only it mounts, with the hook
// scripts' settings for the session (session-files.ts). A call must carry that sandbox's current `wardensb_`
// credential (credential.ts); it then runs the connector hook pipeline (connectors/hook-pipeline.ts) with the
// audit row tagged with the sandbox, counts the verdict (stats.ts) and reports blocked tool calls as `tool.blocked`
// activity events, whose reason names rule ids and categories only, never the matched content.
// A watch (every `openshell.hooks.check_interval_ms`, and on each hook call) raises `finding` events:
//   hook_tamper       the hook config in the sandbox's home no longer matches the image's copy (watch.ts);
//   hook_silence      a tool process of the agent started `silence_seconds` after the last hook call;
//   hooks_unreachable the sandbox's ingress socket stopped listening (it is put back at once);
//   hooks_restored    the condition ended (config back as built, a hook call after silence, socket back).
// hook_tamper and hook_silence count in `hooks.tamper`; with `openshell.hooks.on_tamper: stop` they stop the sandbox
// and no run log is kept.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runHook, type HookPipelineDeps } from '../../connectors/hook-pipeline.js';
import { findHookAgent } from '../../connectors/registry.js';
import { WardenError } from '../../errors.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { IMAGE_HOME_DIR } from '../images/recipes.js';
import type { Image } from '../images/store.js';
import type { Mount, RunInfo } from '../runtime/driver.js';
import { checkBindingCredential } from './credential.js';
import { IngressListener, type IngressAnswer, type IngressCall } from './listener.js';
import { removeSessionFiles, writeSessionFiles } from './session-files.js';
import { HookStats, type HooksView } from './stats.js';
import { configHash, toolProcesses } from './watch.js';

/** The activity callback (A's `ActivityLog.append`): `seq` and `time` are assigned there. */
export type EmitActivity = (event: { kind: string; sandbox: string; [field: string]: unknown }) => void;

export interface HooksSettings {
  on_tamper: 'alert' | 'stop';
  check_interval_ms: number;
  silence_seconds: number;
}

export interface IngressOptions {
  /** The current hook pipeline (the listeners' audit store and inspector; replaced on a listener restart). */
  pipeline: () => HookPipelineDeps | undefined;
  emit: EmitActivity;
  settings: () => HooksSettings;
  /** The sandbox's private home folder on the host. */
  homeOf: (sandbox: string) => string;
  inspect: (sandbox: string) => RunInfo;
  /** Stops a sandbox for a tamper, keeping no log. */
  tamperStop: (sandbox: string) => Promise<void>;
  /** Where the per-sandbox ingress folders go (default: a fresh 0700 folder in the system's temp folder). */
  root?: string;
}

export interface IngressSession {
  name: string;
  harness: string;
  session: number;
  image: Image;
  bindingToken: string;
  bindingHash: string;
}

interface Watched {
  session: IngressSession;
  socket: string;
  /** Hash of the image's copy of the hook config, or undefined when the image carries no hooks. */
  expected: string | undefined;
  tampered: boolean;
  openedAt: number;
  tools: Set<string>;
  stopping: boolean;
}

export type TamperTier = 'hooks' | 'unchecked';

export class HookIngress {
  readonly #options: IngressOptions;
  readonly #root: string;
  readonly #ownsRoot: boolean;
  readonly #stats = new Map<string, HookStats>();
  readonly #open = new Map<string, Watched>();
  #listener: IngressListener | undefined;
  #timer: NodeJS.Timeout | undefined;
  #interval = 0;
  #ticking = false;

  private constructor(options: IngressOptions, root: string, ownsRoot: boolean) {
    this.#options = options;
    this.#root = root;
    this.#ownsRoot = ownsRoot;
  }

  static async create(options: IngressOptions): Promise<HookIngress> {
    const ownsRoot = options.root === undefined;
    const root = options.root ?? mkdtempSync(join(tmpdir(), 'warden-ingress-'));
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const ingress = new HookIngress(options, root, ownsRoot);
    ingress.#listener = await IngressListener.create((call) => ingress.#call(call));
    return ingress;
  }

  /** Where the ingress folders are (status `ingress_addr`). */
  get address(): string {
    return this.#root;
  }

  #statsOf(name: string): HookStats {
    let stats = this.#stats.get(name);
    if (!stats) this.#stats.set(name, (stats = new HookStats()));
    return stats;
  }

  /**
   * Prepares a session before the sandbox starts: its ingress folder and socket, and the image's hook config
   * written into the home (a fresh session starts with the hooks as built). Returns what the sandbox must mount.
   */
  async open(session: IngressSession): Promise<{ mounts: Mount[]; env: Record<string, string> }> {
    await this.close(session.name);
    const files = writeSessionFiles(this.#root, session.name, session.harness, session.bindingToken);
    await this.#listener!.listen(session.name, files.socket);
    const hooks = session.image.hooks;
    let expected: string | undefined;
    if (hooks) {
      const imageHome = join(session.image.path, IMAGE_HOME_DIR);
      expected = configHash(imageHome, hooks.config);
      seedHomeFile(this.#options.homeOf(session.name), hooks.config, readFileSync(join(imageHome, hooks.config)));
    }
    const stats = this.#statsOf(session.name);
    stats.silent = false;
    stats.unreachable = false;
    this.#open.set(session.name, { session, socket: files.socket, expected, tampered: false, openedAt: Date.now(), tools: new Set(), stopping: false });
    this.#schedule();
    return { mounts: files.mounts, env: files.env };
  }

  /** The session ended (stop, failed start): the socket and the settings go; the counts stay. */
  async close(name: string): Promise<void> {
    if (!this.#open.delete(name)) return;
    await this.#listener?.unlisten(name);
    removeSessionFiles(this.#root, name);
  }

  /** The sandbox was deleted: its counts go too. */
  async forget(name: string): Promise<void> {
    await this.close(name);
    this.#stats.delete(name);
  }

  /** ms timestamp of the sandbox's last hook call (A's approvals batch while hooks are quiet). */
  lastHookAt(name: string): number | undefined {
    return this.#stats.get(name)?.lastHookAt;
  }

  view(name: string, image: { hooks?: unknown } | null): { hooks: HooksView; tamper_tier: TamperTier } {
    return { hooks: this.#statsOf(name).view(), tamper_tier: image?.hooks ? 'hooks' : 'unchecked' };
  }

  async #call(call: IngressCall): Promise<IngressAnswer> {
    const watched = this.#open.get(call.sandbox);
    if (!watched) throw new WardenError('WARDEN_ERR_SANDBOX_INGRESS_CREDENTIAL', 'this sandbox is not running', { statusCode: 401 });
    checkBindingCredential(call.authorization, watched.session.bindingHash);
    const agent = findHookAgent(call.connector);
    if (!agent) throw new WardenError('WARDEN_ERR_HOOK_UNKNOWN_CONNECTOR', `no hook connector "${call.connector}"`, { statusCode: 404 });
    const pipeline = this.#options.pipeline();
    if (!pipeline) throw new WardenError('WARDEN_ERR_SANDBOX_INGRESS_UNAVAILABLE', 'the gateway is restarting its listeners', { statusCode: 503 });
    const name = call.sandbox;
    const outcome = await runHook(pipeline, agent, call.body, {
      ...(call.eventName === undefined ? {} : { eventName: call.eventName }),
      tags: { sandbox: name, sandbox_session: watched.session.session },
    });
    const stats = this.#statsOf(name);
    const { event, verdict, findings } = outcome;
    stats.count(event.event, verdict.action);
    if (stats.silent) {
      stats.silent = false;
      this.#finding(name, 'hooks_restored', 'hook calls arrive again after a silence');
    }
    if (verdict.action === 'block' && event.phase === 'pre_tool') {
      // Rule ids and categories only: a reason built from the matched text could carry a secret into every subscriber.
      const rules = [...new Set(findings.map((f) => f.rule.id))];
      const categories = [...new Set(findings.map((f) => f.rule.category))];
      const reason = rules.length > 0 ? `blocked by ${rules.join(', ')} (${categories.join(', ')})` : 'blocked by policy';
      stats.blocked += 1;
      stats.lastBlockReason = reason;
      this.#options.emit({
        kind: 'tool.blocked', sandbox: name, tool: label(event.tool), event: label(event.event), phase: event.phase,
        severity: verdict.severity, rule: rules[0] ?? null, category: categories[0] ?? null, reason,
      });
    }
    for (const finding of findings.filter((f) => f.rule.id.startsWith('CHAIN-'))) {
      this.#options.emit({ kind: 'finding', sandbox: name, reason: 'chain_match', rule: finding.rule.id, severity: finding.rule.severity, tool: label(event.tool) });
    }
    await this.#check(watched);
    return {
      action: outcome.decision.action, reason: outcome.decision.reason, findings: verdict.findings,
      ...(outcome.evaluationId ? { evaluation_id: outcome.evaluationId, rule_ids: outcome.ruleIds } : {}),
      native: outcome.native,
    };
  }

  #finding(sandbox: string, reason: string, message: string): void {
    this.#options.emit({ kind: 'finding', sandbox, reason, message });
  }

  /** Runs the watch on a timer while any sandbox is open (the interval follows the settings). */
  #schedule(): void {
    const interval = this.#options.settings().check_interval_ms;
    if (this.#open.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    if (this.#timer && this.#interval === interval) return;
    clearInterval(this.#timer);
    this.#interval = interval;
    this.#timer = setInterval(() => void this.#tick(), interval);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    // A round that outlasts the interval (a tamper stop) is not overlapped by the next one.
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      for (const watched of [...this.#open.values()]) await this.#check(watched);
    } finally {
      this.#ticking = false;
    }
    this.#schedule();
  }

  /** One round of the watch for one sandbox; never throws (it runs on a timer and after hook calls). */
  async #check(watched: Watched): Promise<void> {
    try {
      await this.#watch(watched);
    } catch {
      // The sandbox stopped during the check (its /proc entries or home went away): the next round sees it closed.
    }
  }

  async #watch(watched: Watched): Promise<void> {
    const { name } = watched.session;
    if (watched.stopping || this.#open.get(name) !== watched) return;
    const stats = this.#statsOf(name);
    await this.#checkReachable(watched, stats);
    if (watched.expected !== undefined) {
      const now = configHash(this.#options.homeOf(name), watched.session.image.hooks!.config);
      const tampered = now !== watched.expected;
      if (tampered && !watched.tampered) {
        watched.tampered = true;
        await this.#tamper(watched, stats, 'hook_tamper', `the hook configuration ~/${watched.session.image.hooks!.config} differs from the image's`);
        if (watched.stopping) return;
      } else if (!tampered && watched.tampered) {
        watched.tampered = false;
        this.#finding(name, 'hooks_restored', `the hook configuration ~/${watched.session.image.hooks!.config} is as the image has it again`);
      }
      await this.#checkSilence(watched, stats);
    }
  }

  async #checkReachable(watched: Watched, stats: HookStats): Promise<void> {
    const { name } = watched.session;
    if (this.#listener!.listening(name)) return;
    if (!stats.unreachable) {
      stats.unreachable = true;
      this.#finding(name, 'hooks_unreachable', 'the sandbox\'s hook ingress socket stopped listening');
    }
    try {
      await this.#listener!.listen(name, watched.socket);
      stats.unreachable = false;
      this.#finding(name, 'hooks_restored', 'the hook ingress socket listens again');
    } catch {
      // Tried again on the next check.
    }
  }

  async #checkSilence(watched: Watched, stats: HookStats): Promise<void> {
    const init = this.#options.inspect(watched.session.name).init_pid;
    if (init === undefined) return;
    const windowMs = this.#options.settings().silence_seconds * 1000;
    const now = Date.now();
    const current = toolProcesses(init);
    const started = [...current].some((tool) => !watched.tools.has(tool));
    watched.tools = current;
    const since = Math.max(stats.lastHookAt ?? 0, watched.openedAt);
    if (started && now - since > windowMs && !stats.silent) {
      stats.silent = true;
      await this.#tamper(watched, stats, 'hook_silence', `a tool process started ${Math.round((now - since) / 1000)} s after the last hook call`);
    }
  }

  async #tamper(watched: Watched, stats: HookStats, reason: 'hook_tamper' | 'hook_silence', message: string): Promise<void> {
    const { name } = watched.session;
    stats.tamper += 1;
    const stop = this.#options.settings().on_tamper === 'stop';
    this.#options.emit({ kind: 'finding', sandbox: name, reason, message: stop ? `${message}; the sandbox is stopped (hooks.on_tamper: stop)` : message });
    if (!stop) return;
    watched.stopping = true;
    await this.#options.tamperStop(name);
  }

  /** Gateway shutdown: every socket and ingress folder goes. */
  async shutdown(): Promise<void> {
    clearInterval(this.#timer);
    for (const name of [...this.#open.keys()]) await this.close(name);
    await this.#listener?.close();
    if (this.#ownsRoot) rmSync(this.#root, { recursive: true, force: true });
  }
}

/** A tool or event name as the sandbox sent it, cut to a label's length: it goes to every activity subscriber. */
function label(value: string | undefined): string | null {
  return value === undefined ? null : value.slice(0, 64);
}

/**
 * Writes the image's copy of a home file into the sandbox's home, before the sandbox runs: a link or a non-folder
 * on the way (left by an earlier session) is removed rather than followed, and the file replaces whatever is there.
 */
function seedHomeFile(home: string, relative: string, content: Buffer): void {
  let dir = home;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  for (const part of relative.split('/').slice(0, -1)) {
    dir = join(dir, part);
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch {
      if (!isRealDir(dir)) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { mode: 0o700 });
      }
    }
  }
  const target = join(home, relative);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  writeFileAtomic(target, content.toString('utf8'), 0o600);
}

function isRealDir(path: string): boolean {
  try {
    // lstat: a link to a folder is not a folder here.
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
