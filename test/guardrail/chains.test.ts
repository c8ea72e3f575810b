import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { openDatabase } from '../../src/db/open.js';
import type { ActionFacts } from '../../src/guardrail/facts/types.js';
import { CHAINS, chainFinding, type ChainDefinition } from '../../src/guardrail/chains/chains.js';
import { fingerprintOf } from '../../src/guardrail/chains/fingerprint.js';
import { CHAIN_SCHEMA } from '../../src/guardrail/chains/schema.js';
import { classifyHost } from '../../src/guardrail/chains/hosts.js';
import { classify, type ChainSignal, type ClassifyInput } from '../../src/guardrail/chains/signals.js';
import { ChainTracker, type ChainEvent } from '../../src/guardrail/chains/tracker.js';

const dir = mkdtempSync(join(tmpdir(), 'warden-chains-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function openDb(path = join(dir, `chains-${++files}.db`)): Database.Database {
  return openDatabase(path, { schema: CHAIN_SCHEMA });
}
const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** Facts of a shell call; each line is one command (the extractor also lists wrapped commands separately). */
function shell(...lines: (string | Partial<ActionFacts>)[]): ActionFacts {
  const over = lines.find((l): l is Partial<ActionFacts> => typeof l !== 'string') ?? {};
  const texts = lines.filter((l): l is string => typeof l === 'string');
  const commands = texts.map((text) => {
    const [argv0 = '', ...args] = text.split(/\s+/);
    return { name: argv0.slice(argv0.lastIndexOf('/') + 1), args, text };
  });
  return {
    tool: 'bash', parsed: true, commands, pipelines: [], paths_read: [], paths_written: [], hosts: [], urls: [],
    normalized: texts.join('\n'), ...over,
  };
}
const finding = (ruleId: string, category: string, tags: string[]) => ({ ruleId, category, tags });
const pre = (facts: ActionFacts, findings: ClassifyInput['findings'] = []): ClassifyInput => ({ phase: 'pre_tool', facts, findings });
const sh = (...lines: Parameters<typeof shell>) => pre(shell(...lines));

let calls = 0;
const event = (phase: ChainEvent['phase'], signals: ChainSignal[], over: Partial<ChainEvent> = {}): ChainEvent => ({
  connector: 'claudecode', sessionId: 's1', phase, fingerprint: `fp-${phase}-${signals.join('+')}`, signals: new Set(signals), at: T0, ...over,
});
/** A first step as it really happens: the call is proposed, then its result arrives (or, for a permission
 *  error, just the failed result). */
function firstStep(t: ChainTracker, signal: ChainSignal, over: Partial<ChainEvent> = {}): void {
  const id = `call-${++calls}`;
  if (signal === 'permission_denied') {
    t.observe(event('post_tool', [signal], { toolCallId: id, succeeded: false, ...over }));
    return;
  }
  t.observe(event('pre_tool', [signal], { toolCallId: id, ...over }));
  t.observe(event('post_tool', [signal], { toolCallId: id, succeeded: true, ...over }));
}
const finalStep = (t: ChainTracker, signal: ChainSignal, over: Partial<ChainEvent> = {}) =>
  t.observe(event('pre_tool', [signal], { toolCallId: `call-${++calls}`, ...over }));
function filler(t: ChainTracker, count: number, over: Partial<ChainEvent> = {}): void {
  for (let i = 0; i < count; i++) t.observe(event(i % 2 ? 'post_tool' : 'pre_tool', [], { fingerprint: `filler-${i}`, ...over }));
}
/** Runs first step, `gap` filler events, then the final step `dt` ms after the first, in a fresh session. */
function chainAttempt(chain: ChainDefinition, gap: number, dt: number) {
  const t = new ChainTracker(openDb());
  firstStep(t, chain.first);
  filler(t, gap);
  return finalStep(t, chain.final, { at: T0 + dt }).matches;
}

describe('ordered chains: tracker', () => {
  for (const chain of CHAINS) {
    it(`${chain.id}: fires inside the window and horizon, not outside either`, () => {
      const inside = chainAttempt(chain, chain.horizon - 2, chain.windowMs);
      assert.deepEqual(inside, [{ chain: chain.id, steps: [chain.first, chain.final], firstAt: T0 }]);
      assert.deepEqual(chainAttempt(chain, chain.horizon - 2, chain.windowMs + 1), []);
      assert.deepEqual(chainAttempt(chain, chain.horizon, MINUTE), []);
    });
  }

  it('counts a proposal only once its successful result arrives', () => {
    const t = new ChainTracker(openDb());
    t.observe(event('pre_tool', ['sensitive_secret_read'], { toolCallId: 'a' }));
    assert.deepEqual(finalStep(t, 'external_egress').matches, [], 'no result yet');
    t.observe(event('post_tool', [], { toolCallId: 'a', succeeded: false }));
    assert.deepEqual(finalStep(t, 'external_egress').matches, [], 'failed result');
    t.observe(event('pre_tool', ['sensitive_secret_read'], { toolCallId: 'b' }));
    t.observe(event('post_tool', [], { toolCallId: 'other' }));
    assert.deepEqual(finalStep(t, 'external_egress').matches, [], 'result of another call');
    t.observe(event('post_tool', [], { toolCallId: 'b' })); // success unknown: not a failure
    assert.equal(finalStep(t, 'external_egress').matches.length, 1);
  });

  it('without tool call ids, pairs the result by fingerprint', () => {
    const t = new ChainTracker(openDb());
    t.observe(event('pre_tool', ['secret_manager_read'], { fingerprint: 'vault-read' }));
    t.observe(event('post_tool', [], { fingerprint: 'something-else', succeeded: true }));
    assert.deepEqual(finalStep(t, 'external_egress').matches, []);
    t.observe(event('post_tool', [], { fingerprint: 'vault-read', succeeded: true }));
    assert.equal(finalStep(t, 'external_egress').matches[0]?.chain, 'secret-manager-read-then-egress');
  });

  it('never matches a final step on a post-tool event', () => {
    const t = new ChainTracker(openDb());
    firstStep(t, 'privilege_discovery');
    assert.deepEqual(t.observe(event('post_tool', ['privilege_elevation'], { succeeded: true })).matches, []);
    assert.equal(finalStep(t, 'privilege_elevation').matches.length, 1, 'the predecessor is still there');
  });

  it('keeps sessions and connectors apart', () => {
    const t = new ChainTracker(openDb());
    firstStep(t, 'workload_identity_access');
    assert.deepEqual(finalStep(t, 'lateral_execution', { sessionId: 's2' }).matches, []);
    assert.deepEqual(finalStep(t, 'lateral_execution', { connector: 'codex' }).matches, []);
    assert.equal(finalStep(t, 'lateral_execution').matches.length, 1);
  });

  it('replays a deny receipt for the same call without new matches, within the chain window', () => {
    const t = new ChainTracker(openDb());
    firstStep(t, 'guardrails_disabled');
    const egress = { fingerprint: 'curl-evil', at: T0 + MINUTE };
    const [match] = finalStep(t, 'external_egress', egress).matches;
    assert.equal(match?.chain, 'guardrails-disabled-then-egress');
    t.recordDeny('claudecode', 's1', 'curl-evil', match.chain, 'chain CHAIN-X blocked', T0 + MINUTE);

    const again = finalStep(t, 'external_egress', { ...egress, at: T0 + 2 * MINUTE });
    assert.deepEqual(again, { matches: [], replayedDeny: { chain: match.chain, reason: 'chain CHAIN-X blocked', at: T0 + MINUTE } });
    const other = finalStep(t, 'external_egress', { fingerprint: 'curl-other', at: T0 + 2 * MINUTE });
    assert.equal(other.replayedDeny, undefined);
    assert.equal(other.matches.length, 1);
    assert.equal(finalStep(t, 'external_egress', { sessionId: 's2', fingerprint: 'curl-evil' }).replayedDeny, undefined);
    assert.equal(finalStep(t, 'external_egress', { ...egress, at: T0 + 32 * MINUTE }).replayedDeny, undefined, 'window over');
  });

  it('survives a restart: a new tracker over the same file sees the steps, event count and receipts', () => {
    const path = join(dir, 'restart.db');
    let db = openDb(path);
    let t = new ChainTracker(db);
    firstStep(t, 'sensitive_secret_read');
    t.recordDeny('claudecode', 's1', 'denied-call', 'sensitive-secret-read-then-egress', 'blocked', T0);
    filler(t, 10);
    db.close();

    db = openDb(path);
    t = new ChainTracker(db);
    assert.equal(finalStep(t, 'external_egress', { fingerprint: 'denied-call' }).replayedDeny?.reason, 'blocked');
    assert.equal(finalStep(t, 'external_egress').matches.length, 1);
    filler(t, 51); // the final step is now event 66, 65 after the first: beyond the horizon of 64
    assert.deepEqual(finalStep(t, 'external_egress').matches, [], 'the horizon counts events from before the restart');
    db.close();
  });

  it('stores fingerprints and masks, never the command, and keeps state bounded', () => {
    const db = openDb();
    const t = new ChainTracker(db);
    const secret = 'AKIAQWERTYUIOPASDFGH';
    const read = shell('cat /home/u/.aws/credentials', `grep ${secret} /home/u/.aws/credentials`, { paths_read: ['/home/u/.aws/credentials'] });
    const signals = classify(pre(read));
    assert.ok(signals.has('sensitive_secret_read'));
    for (let i = 0; i < 20; i++) {
      const fingerprint = fingerprintOf('bash', read);
      t.observe({ connector: 'claudecode', sessionId: 's1', phase: 'pre_tool', fingerprint, signals, at: T0 + i });
      t.observe({ connector: 'claudecode', sessionId: 's1', phase: 'post_tool', fingerprint, signals: new Set(), succeeded: true, at: T0 + i });
    }
    const rows = db.prepare('SELECT * FROM chain_sessions').all() as { state: string }[];
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(secret) && !dump.includes('credentials') && !dump.includes('cat '), dump);
    assert.equal((JSON.parse(rows[0]!.state) as { steps: unknown[] }).steps.length, 8);
  });

  it('deletes the rows of sessions idle for longer than every window', () => {
    const db = openDb();
    const t = new ChainTracker(db);
    firstStep(t, 'guardrails_disabled', { sessionId: 'old' });
    const count = () => (db.prepare('SELECT count(*) AS n FROM chain_sessions').get() as { n: number }).n;
    assert.equal(count(), 1);
    filler(t, 1, { sessionId: 'new', at: T0 + 31 * MINUTE });
    assert.equal(count(), 0);
  });

  it('deletes a backlog of idle sessions larger than one prune batch without waiting a minute per batch', () => {
    const db = openDb();
    const t = new ChainTracker(db);
    // 1,000 sessions, each left with a pending proposal (a stored row), then all idle past every window.
    for (let i = 0; i < 1000; i++) t.observe(event('pre_tool', ['sensitive_secret_read'], { sessionId: `idle-${i}`, toolCallId: `c${i}`, at: T0 + i }));
    const count = () => (db.prepare('SELECT count(*) AS n FROM chain_sessions').get() as { n: number }).n;
    assert.equal(count(), 1000);
    // A few events in the same second: each may delete one bounded batch until the backlog is gone.
    filler(t, 4, { sessionId: 'active', at: T0 + 31 * MINUTE });
    assert.equal(count(), 0);
  });

  it('leaves benign work alone: tests and a git push are no chain', () => {
    const t = new ChainTracker(openDb());
    const push = classify(sh('git push origin main', { hosts: ['github.com'] }));
    const test = classify(sh('npm test'));
    assert.deepEqual([...push], ['external_egress']);
    assert.deepEqual([...test], []);
    for (let i = 0; i < 3; i++) {
      for (const signals of [test, push]) {
        assert.deepEqual(t.observe({ connector: 'c', sessionId: 's', phase: 'pre_tool', fingerprint: `f${i}`, signals, at: T0 }).matches, []);
        t.observe({ connector: 'c', sessionId: 's', phase: 'post_tool', fingerprint: `f${i}`, signals: new Set(), succeeded: true, at: T0 });
      }
    }
  });
});

describe('ordered chains: classify', () => {
  const post = (toolOutput: string, toolSucceeded?: boolean): ClassifyInput => ({ phase: 'post_tool', findings: [], toolOutput, toolSucceeded });
  const examples: Record<ChainSignal, ClassifyInput[]> = {
    guardrails_disabled: [
      sh('warden stop'), sh('warden hooks uninstall'), sh('rm /home/u/.claude/settings.json'),
      sh('claude --dangerously-skip-permissions -p hi'), sh('ufw disable'),
      pre(shell('vim x'), [finding('CMD-AGENT-DISABLE-HOOKS', 'command', ['agent-bypass', 'tamper'])]),
    ],
    external_egress: [sh('curl https://example.com', { hosts: ['example.com'] }), pre(shell('dig x'), [finding('C2-DNS-EXFIL-SUBSTITUTION', 'c2', ['exfiltration'])])],
    permission_denied: [post("Error: EACCES: permission denied, open '/etc/x'", false), post('u is not in the sudoers file.')],
    runtime_bypass: [sh('sudo -u root ls -la /root', 'ls -la /root'), sh('chmod 777 /srv/app'), sh('git commit --no-verify -m x')],
    privilege_discovery: [
      sh('sudo -l'), sh('id'), sh('find / -perm -4000 -type f'), sh('getcap -r /'),
      sh('cat /etc/sudoers', { paths_read: ['/etc/sudoers'] }),
    ],
    privilege_elevation: [sh('sudo -i'), sh('su -'), sh('pkexec bash'), sh('chmod u+s /tmp/sh')],
    secret_manager_read: [
      'vault kv get -mount=secret app', 'aws --region eu-west-1 secretsmanager get-secret-value --secret-id db',
      'aws ssm get-parameter --name /db/pw --with-decryption', 'gcloud secrets versions access latest --secret=db',
      'az keyvault secret show --name db --vault-name v', 'op read op://vault/db/password', 'kubectl -n prod get secret db -o yaml',
      'doppler secrets download --no-file',
    ].map((line) => sh(line)),
    sensitive_secret_read: [
      sh('cat /home/u/.ssh/id_ed25519', { paths_read: ['/home/u/.ssh/id_ed25519'] }),
      sh('cat .env.production', { paths_read: ['.env.production'] }),
      pre(shell('x'), [finding('PATH-NETRC', 'sensitive-path', ['netrc'])]),
    ],
    workload_identity_access: [
      sh('curl http://2852039166/latest/', { hosts: ['2852039166'] }),
      sh('cat t', { paths_read: ['/var/run/secrets/kubernetes.io/serviceaccount/token'] }),
      sh('aws sts get-caller-identity'), sh('gcloud auth print-access-token'),
    ],
    lateral_execution: [
      'ssh -i key -p 2222 deploy@10.0.3.4 uptime', 'rsync -a ./dist/ web1:/srv/app/', 'kubectl exec -it pod-1 -- sh',
      'docker -H tcp://10.0.0.9:2375 ps', 'aws ssm send-command --document-name AWS-RunShellScript', 'gcloud compute ssh vm-1',
    ].map((line) => sh(line)),
  };
  for (const [signal, inputs] of Object.entries(examples)) {
    it(`recognises ${signal}`, () => {
      for (const input of inputs) assert.ok(classify(input).has(signal as ChainSignal), JSON.stringify(input.facts?.normalized ?? input.toolOutput));
    });
  }

  it('does not read too much into near misses', () => {
    const none = (input: ClassifyInput) => assert.deepEqual([...classify(input)], [], JSON.stringify(input.facts?.commands));
    none(sh('curl http://localhost:3000/health', { hosts: ['localhost'] }));
    none(sh('ssh localhost uptime'));
    none(sh('cat id_rsa.pub', { paths_read: ['/home/u/.ssh/id_rsa.pub', '.env.example'] }));
    none(sh('grep -r --no-verify docs'));
    none(sh('docker run --user 1000 app', 'id -u'));
    none(sh('sudo -v'));
    none({ phase: 'post_tool', findings: [], toolOutput: 'grep: Permission denied', toolSucceeded: true });
    none({ phase: 'pre_tool', findings: [finding('C2-EXFIL-URL-IN-CONTENT', 'c2', ['exfiltration', 'injection'])] });
    assert.ok(!classify(sh('curl http://169.254.169.254/', { hosts: ['169.254.169.254'] })).has('external_egress'));
    assert.deepEqual([...classify(sh('sudo -l'))], ['privilege_discovery'], 'sudo -l runs nothing');
    assert.ok(!classify(sh('sudo ls -la /root', 'ls -la /root')).has('privilege_discovery'), '-la is ls\'s option');
  });

  it('knows every metadata address spelling the c2 rules know, and what stays local', () => {
    for (const h of ['169.254.169.254', '2852039166', '0xa9fea9fe', '025177524776', '0251.0376.0251.0376', '169.254.43518',
      '169.16689662', '::ffff:169.254.169.254', '[::ffff:a9fe:a9fe]', 'fd00:ec2::254', '169-254-169-254.nip.io',
      '169.254.170.2', '100.100.100.200', 'metadata.google.internal', 'metadata.goog']) assert.equal(classifyHost(h), 'metadata', h);
    for (const h of ['127.0.0.1', '0x7f000001', '10.2.3.4', '172.20.1.1', '192.168.1.10', 'localhost', 'db', 'host.docker.internal',
      'printer.local', '::1', 'fe80::1', '10-0-0-1.nip.io']) assert.equal(classifyHost(h), 'internal', h);
    for (const h of ['github.com', '8.8.8.8', '2001:4860:4860::8888', '1-2-3-4.sslip.io']) assert.equal(classifyHost(h), 'external', h);
  });

  it('fingerprints the parsed call, falling back to the raw arguments when the facts say nothing', () => {
    assert.equal(fingerprintOf('Bash', shell('rm x')), fingerprintOf('bash', { ...shell('rm x'), commands: [] }));
    assert.notEqual(fingerprintOf('bash', shell('rm x')), fingerprintOf('bash', shell('rm y')));
    const unparsed = { ...shell('a'), parsed: false };
    assert.notEqual(fingerprintOf('bash', unparsed, '{"command":"a("}'), fingerprintOf('bash', unparsed, '{"command":"b("}'));
  });

  it('turns a match into a HIGH finding', () => {
    assert.deepEqual(chainFinding({ chain: 'sensitive-secret-read-then-egress', steps: ['sensitive_secret_read', 'external_egress'], firstAt: T0 }), {
      ruleId: 'CHAIN-SENSITIVE-SECRET-READ-THEN-EGRESS', title: 'Sensitive secret read, then external egress', severity: 'HIGH',
      confidence: 0.8, tags: ['ordered-chain'], evidence: 'sensitive_secret_read then external_egress',
    });
  });
});
