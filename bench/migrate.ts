// The config_version 8 → 9 migration end to end (read the home, migrate, apply) on a large version 8 home: a
// custom rule pack of 100 pattern-only rules in 4 files, 5,000 audit.db `actions` rows (operator and scan-verdict
// rows), data.json, a pre-9 Rego module and a providers overlay. Baseline, in the same run: reading and writing
// the same files without migrating (every file of the home read, the actions rows selected, config.yaml, the
// record and the generation file written atomically). Each run gets a fresh copy of the home (the copy is not
// timed). Target: end to end <= 1 s (median of the runs).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BUILT_IN_DEPS, type MigrationDeps } from '../src/migration/index.js';
import { runMigration } from '../src/migration/run.js';
import { writeFileAtomic } from '../src/util/atomic-write.js';
import { median, round, writeResult } from './lib/report.js';

const RULES = 100;
const RULE_FILES = 4;
const ACTIONS_ROWS = 5_000;
const RUNS = 7;

function buildHome(dir: string): void {
  const pack = join(dir, 'policies/guardrail/custom');
  mkdirSync(pack, { recursive: true });
  mkdirSync(join(dir, 'policies/rego'), { recursive: true });
  for (let file = 0; file < RULE_FILES; file++) {
    const rules = Array.from({ length: RULES / RULE_FILES }, (_, i) => {
      const n = file * (RULES / RULE_FILES) + i;
      return `  - id: CUSTOM-BENCH-${n}\n    title: Bench rule ${n}\n    category: ${file % 2 ? 'secret' : 'command'}\n` +
        `    severity: HIGH\n    confidence: 0.8\n    patterns:\n      - '(?i)\\bbench-literal-${n}\\b'\n    enabled: true\n`;
    });
    writeFileSync(join(pack, `${String(file).padStart(2, '0')}-bench.yaml`), `rules:\n${rules.join('')}`);
  }
  // Version 8 wrote absolute paths under its data_dir; the migration maps them into the copy it runs on.
  writeFileSync(join(dir, 'config.yaml'), `# bench home\nconfig_version: 8\ndata_dir: ${dir}\ngateway:\n  api_port: 0\nguardrail:\n  port: 0\n  mode: observe\n` +
    `  rule_pack_dir: ${pack}\nskill_actions:\n  high: {file: quarantine, runtime: disable, install: block}\n` +
    `scanners:\n  skill_scanner: {binary: skill-scanner, policy: permissive}\n  mcp_scanner: {analyzers: "yara,llm"}\nupdate_check: false\n`);
  writeFileSync(join(dir, 'policies/rego/data.json'), JSON.stringify({
    config: { allow_list_bypass_scan: false, scan_on_install: true },
    actions: Object.fromEntries(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'].map((s, i) =>
      [s, i < 2 ? { runtime: 'block', file: 'quarantine', install: 'block' } : { runtime: 'allow', file: 'none', install: 'none' }])),
    guardrail: { block_threshold: 3, alert_threshold: 2 },
  }));
  writeFileSync(join(dir, 'policies/rego/legacy.rego'), 'package custom.legacy\nimport data.actions\ndeny[msg] { actions.HIGH.install == "block"; msg := "x" }\n');
  writeFileSync(join(dir, 'custom-providers.json'), JSON.stringify({ providers: [{ name: 'corp-llm', domains: ['llm.corp.example'] }] }));
  writeFileSync(join(dir, '.env'), 'WARDEN_GATEWAY_TOKEN=bench\n', { mode: 0o600 });
  const db = new Database(join(dir, 'audit.db'));
  // Version 8's table, as docs/migration.md "Version 8 audit.db actions" gives it (what readHome reads).
  db.exec(`CREATE TABLE actions (id INTEGER PRIMARY KEY, target_type TEXT NOT NULL, target_name TEXT NOT NULL, source_path TEXT,
    action TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', actor TEXT, updated_at TEXT NOT NULL)`);
  const insert = db.prepare('INSERT INTO actions (target_type, target_name, source_path, action, reason, actor, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < ACTIONS_ROWS; i++) {
      const type = ['skill', 'mcp', 'plugin', 'tool'][i % 4]!;
      const name = type === 'tool' ? `@claudecode/tool-${i}` : `${type}-${i}`;
      const reason = i % 3 === 0 ? `post-scan: HIGH finding ${i}` : `operator decision ${i}`;
      insert.run(type, name, i % 2 ? null : `/home/dev/.agents/${name}`, i % 2 ? 'block' : 'allow', reason, 'dev', '2025-06-01T00:00:00Z');
    }
  })();
  db.close();
}

/** Reading and writing what the migration reads and writes, without migrating: the floor of end to end. */
function readAndWrite(dir: string): void {
  const read = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) read(join(folder, entry.name));
      else if (entry.name !== 'audit.db') readFileSync(join(folder, entry.name));
    }
  };
  read(dir);
  const db = new Database(join(dir, 'audit.db'), { readonly: true });
  const rows = db.prepare('SELECT * FROM actions').all();
  db.close();
  const config = readFileSync(join(dir, 'config.yaml'));
  writeFileAtomic(join(dir, 'config.yaml.v8.bak'), config, 0o600);
  writeFileAtomic(join(dir, 'migration-v9.json'), JSON.stringify({ rows: rows.length, sample: rows.slice(0, 100) }), 0o600);
  writeFileAtomic(join(dir, 'config.generation.json'), '{"generation":1}', 0o600);
  writeFileAtomic(join(dir, 'config.yaml'), config);
}

async function timedRuns(template: string, body: (dir: string) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'warden-bench-migrate-'));
    try {
      cpSync(template, dir, { recursive: true });
      const start = process.hrtime.bigint();
      await body(dir);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return times;
}

/** `deps` defaults to the migration this build carries (read-home.ts and migrate.ts joined in index.ts). */
export async function run(deps: MigrationDeps | undefined = BUILT_IN_DEPS): Promise<void> {
  const template = mkdtempSync(join(tmpdir(), 'warden-bench-home-'));
  // The agents' MCP configurations are read from an empty user home: the bench must not read the real one.
  const userHome = mkdtempSync(join(tmpdir(), 'warden-bench-user-'));
  try {
    buildHome(template);
    const baselineMs = median(await timedRuns(template, readAndWrite));
    if (!deps) {
      const file = writeResult({
        name: 'migrate', metrics: {}, baseline: { read_write_ms: round(baselineMs, 1) }, ratio: {},
        notes: ['this build carries no migration (src/migration/index.ts BUILT_IN_DEPS is empty): only the baseline was measured'],
      });
      process.stdout.write(`migration not in this build; baseline read+write ${round(baselineMs, 1)} ms -> ${file}\n`);
      return;
    }
    const migrateMs = median(await timedRuns(template, async (dir) => {
      const outcome = await runMigration(deps, dir, { userHome });
      if (outcome.status !== 'migrated') throw new Error(`bench home not migrated: ${outcome.status}`);
    }));
    const file = writeResult({
      name: 'migrate',
      metrics: { end_to_end_median_ms: round(migrateMs, 1), target_ms: 1000 },
      baseline: { read_write_median_ms: round(baselineMs, 1) },
      ratio: { migrate_over_read_write: round(migrateMs / baselineMs, 1), within_target: migrateMs <= 1000 ? 1 : 0 },
      notes: [`${RULES} custom rules in ${RULE_FILES} files, ${ACTIONS_ROWS} audit.db actions rows; median of ${RUNS} runs, each on a fresh copy of the home`],
    });
    process.stdout.write(`migration end to end ${round(migrateMs, 1)} ms (target <= 1000 ms), read+write baseline ${round(baselineMs, 1)} ms -> ${file}\n`);
  } finally {
    rmSync(template, { recursive: true, force: true });
    rmSync(userHome, { recursive: true, force: true });
  }
}
