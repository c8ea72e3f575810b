// The agent definitions (src/connectors/<agent>/) agree with everything derived from them: the registry, what
// `warden setup` writes (hook entries, and the fail-closed answer in the hook script's settings), what the decoder
// knows, and what the hook script answers for each agent when it cannot ask Warden.
// These are the checks that would have caught Cursor's preToolUse: decoded and gated, but never installed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gateEvents, installedEvents, type HookAgent } from '../../src/connectors/definition.js';
import type { NativeHookAnswer } from '../../src/connectors/hook-event.js';
import { CONNECTORS } from '../../src/connectors/index.js';
import { BUILTIN_CONNECTORS, HOOK_AGENTS } from '../../src/connectors/registry.js';
import { installHooks, REFUSAL_REASON_MARKER, type HookSettings } from '../../src/connectors/setup/install.js';

const SCRIPT = fileURLToPath(new URL('../../hooks/warden-hook.mjs', import.meta.url));
const PAYLOADS = join(import.meta.dirname, 'payloads');
/** Every payload field some agent names its event in; a probe payload sets one of them. */
const EVENT_FIELDS = ['hook_event_name', 'hookEventName', 'agent_action_name', 'event_type', 'event', 'type'];

/** The agent's decode of a payload naming `event` in `field`, or undefined when the agent does not read that field. */
function decodeNamed(agent: HookAgent, field: string, event: string) {
  try {
    const decoded = agent.decode({ [field]: event });
    return decoded.event === event ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** Every event name any agent lists or any recorded payload names: the probes for what a decoder knows. */
function probeNames(): Set<string> {
  const names = new Set(HOOK_AGENTS.flatMap((a) => Object.keys(a.events)));
  for (const dir of readdirSync(PAYLOADS)) {
    for (const file of readdirSync(join(PAYLOADS, dir))) {
      const payload = JSON.parse(readFileSync(join(PAYLOADS, dir, file), 'utf8')) as Record<string, unknown>;
      for (const field of EVENT_FIELDS) if (typeof payload[field] === 'string') names.add(payload[field]);
    }
  }
  return names;
}

describe('agent definitions', () => {
  it('the registry is derived from the registration list: names, order, installed events', () => {
    assert.deepEqual(BUILTIN_CONNECTORS.map((c) => c.name), CONNECTORS.map((c) => c.name));
    assert.equal(new Set(CONNECTORS.map((c) => c.name)).size, CONNECTORS.length, 'no name registered twice');
    for (const agent of HOOK_AGENTS) {
      assert.deepEqual(BUILTIN_CONNECTORS.find((c) => c.name === agent.name)?.hook_events, installedEvents(agent), agent.name);
    }
    assert.deepEqual(BUILTIN_CONNECTORS.filter((c) => c.hook_events.length === 0).map((c) => c.name), ['openclaw', 'zeptoclaw']);
  });

  for (const agent of HOOK_AGENTS) {
    describe(agent.name, () => {
      it('every gate is installed, and is a pre-tool or prompt event', () => {
        assert.ok(gateEvents(agent).length > 0, 'an agent with hooks has something to refuse');
        for (const event of gateEvents(agent)) {
          assert.ok(agent.events[event]!.installed, `${event} is a gate but setup does not install it`);
          assert.match(agent.events[event]!.phase, /^(pre_tool|prompt)$/, event);
        }
      });

      it('every listed event decodes with its listed phase', () => {
        for (const [event, spec] of Object.entries(agent.events)) {
          const phases = EVENT_FIELDS.map((field) => decodeNamed(agent, field, event)?.phase);
          assert.ok(phases.includes(spec.phase), `${event}: listed as ${spec.phase}, decoded as ${phases.filter(Boolean).join('/') || 'nothing'}`);
        }
      });

      it('every event the decoder knows is listed', () => {
        for (const name of probeNames()) {
          for (const field of EVENT_FIELDS) {
            const decoded = decodeNamed(agent, field, name);
            if (decoded === undefined || decoded.phase === 'other') continue;
            assert.ok(Object.hasOwn(agent.events, name), `${name} decodes as ${decoded.phase} (from "${field}") but is not listed`);
          }
        }
      });

      it('setup writes a hook for exactly the installed events', () => {
        const events = installedEvents(agent);
        const text = agent.setup.install(undefined, events, { connector: agent.name, home: '/tmp/warden-home', failMode: 'closed' });
        // Hook files name the event in the command (`--event X`); the opencode plugin names it as a string literal.
        const named = (event: string) => text.includes(`--event ${event}`) || text.includes(`'${event}'`);
        for (const event of events) assert.ok(named(event), `${event} is installed but setup wrote no hook for it`);
        for (const [event, spec] of Object.entries(agent.events)) {
          if (!spec.installed) assert.ok(!text.includes(`--event ${event}\``) && !text.includes(`--event ${event}"`), `${event} is not installed but setup wrote it`);
        }
        assert.ok(agent.setup.installed(text));
      });
    });
  }
});

describe("the hook script's fail-closed answers, as setup writes them", () => {
  let home = '';
  let userHome = '';
  const saved = { HOME: process.env.HOME, WARDEN_HOME: process.env.WARDEN_HOME };
  const settingsOf = (connector: string) => JSON.parse(readFileSync(join(home, 'hooks', `${connector}.json`), 'utf8')) as HookSettings;

  before(() => {
    home = mkdtempSync(join(tmpdir(), 'warden-failclosed-'));
    userHome = mkdtempSync(join(tmpdir(), 'warden-failclosed-user-'));
    Object.assign(process.env, { HOME: userHome, WARDEN_HOME: home });
    for (const agent of HOOK_AGENTS) installHooks(agent.name, { failMode: 'closed' });
  });
  after(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    rmSync(home, { recursive: true, force: true });
    rmSync(userHome, { recursive: true, force: true });
  });

  it("setup writes every agent's gate events and its refusal, with the marker where the reason goes", () => {
    for (const agent of HOOK_AGENTS) {
      const { fail_closed: failClosed } = settingsOf(agent.name);
      assert.deepEqual(failClosed.gates, gateEvents(agent), `${agent.name} gates`);
      assert.deepEqual(failClosed.refusal, agent.refusal(REFUSAL_REASON_MARKER), `${agent.name} refusal`);
    }
  });

  /** Runs the hook script for `event`; `failed` hands a failure over as the sh script does, else the sidecar is down. */
  async function runHook(connector: string, event: string, failed?: string) {
    const args = [SCRIPT, connector, '--home', home, '--event', event, ...(failed === undefined ? [] : ['--failed', failed])];
    const proc = spawn(process.execPath, args, { stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.stdin.end(JSON.stringify({ hook_event_name: event, agent_action_name: event, event }));
    const [code] = (await once(proc, 'exit')) as [number];
    return { code, stdout: stdout.trim() === '' ? undefined : (JSON.parse(stdout) as Record<string, unknown>), stderr: stderr.trim() };
  }

  /** The reason the script gave: on stderr, or in a stdout value; it must be the script's own words, not the marker. */
  function reasonIn(run: Awaited<ReturnType<typeof runHook>>, what: string): string {
    const reason = run.stderr || Object.values(run.stdout ?? {}).find((v): v is string => typeof v === 'string' && v.startsWith('Warden could not check'));
    assert.ok(reason, `${what}: no reason in ${JSON.stringify(run)}`);
    assert.match(reason, /^Warden could not check this \S+ event \(.*\); hooks fail closed, so it is blocked\./, what);
    return reason;
  }

  const answerOf = (run: Awaited<ReturnType<typeof runHook>>) => ({ code: run.code, stdout: run.stdout, stderr: run.stderr });
  const expectedOf = (refusal: NativeHookAnswer) => ({ code: refusal.exit_code, stdout: refusal.stdout, stderr: refusal.stderr?.trim() ?? '' });

  describe('as the script runs it, with the sidecar down and hooks failing closed', () => {
    before(() => {
      // The discard port: nothing listens there, so connecting is refused at once.
      for (const agent of HOOK_AGENTS) writeFileSync(join(home, 'hooks', `${agent.name}.json`), JSON.stringify({ ...settingsOf(agent.name), sidecar: 'http://127.0.0.1:9' }));
    });

    for (const agent of HOOK_AGENTS) {
      it(`${agent.name}: the agent's refusal on a gate event, a pass on the others`, async () => {
        const gate = gateEvents(agent)[0]!;
        const refused = await runHook(agent.name, gate);
        const reason = reasonIn(refused, gate);
        assert.match(reason, /sidecar unreachable at http:\/\/127\.0\.0\.1:9/);
        assert.deepEqual(answerOf(refused), expectedOf(agent.refusal(reason)), gate);
        const passing = installedEvents(agent).find((e) => !agent.events[e]!.gate);
        if (passing === undefined) return;
        const passed = await runHook(agent.name, passing);
        assert.deepEqual([passed.code, passed.stdout], [0, undefined], passing);
      });
    }

    it('puts the reason in as it is, replacement patterns and the marker itself included', async () => {
      const cursor = HOOK_AGENTS.find((a) => a.name === 'cursor')!;
      const odd = `sidecar said $& and $1 and ${REFUSAL_REASON_MARKER} "quoted" \\ back`;
      const refused = await runHook('cursor', 'beforeShellExecution', odd);
      const reason = reasonIn(refused, 'cursor');
      assert.ok(reason.includes(odd), reason);
      assert.deepEqual(answerOf(refused), expectedOf(cursor.refusal(reason)));
    });
  });
});
