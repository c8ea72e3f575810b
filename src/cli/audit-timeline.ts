// `warden audit timeline --session ID`: the correlation ledger's timeline and conflicts for one session, read
// through read-only connections beside a running gateway (WAL), printed one record a line.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AuditReader } from '../audit/reader.js';
import { wardenPaths } from '../config/home.js';
import { migrate } from '../db/migrate.js';
import { CorrelationLedger, type LedgerItem } from '../telemetry/correlation/ledger.js';
import { TELEMETRY_LIMITS } from '../telemetry/limits.js';
import { TELEMETRY_SCHEMA } from '../telemetry/store/schema.js';
import { telemetryDbPath, TelemetryStore } from '../telemetry/store/store.js';

export function openLedgerReadOnly(): { ledger: CorrelationLedger; close(): void } | undefined {
  const paths = wardenPaths();
  if (!existsSync(paths.auditDb)) {
    process.stderr.write(`warden: no audit database at ${paths.auditDb} (has the gateway run yet?)\n`);
    return undefined;
  }
  const audit = new AuditReader(paths.auditDb);
  const telemetryPath = telemetryDbPath(paths.home);
  let telemetry: Database.Database;
  let store: TelemetryStore | undefined;
  if (existsSync(telemetryPath)) {
    store = new TelemetryStore(telemetryPath, { readonly: true });
    telemetry = store.db;
  } else {
    // No OTLP received yet: an empty ledger side.
    telemetry = new Database(':memory:');
    migrate(telemetry, TELEMETRY_SCHEMA);
  }
  return {
    ledger: new CorrelationLedger(audit.db, telemetry),
    close() {
      audit.close();
      if (store) store.close();
      else telemetry.close();
    },
  };
}

const line = (item: LedgerItem): string =>
  [item.timestamp, item.kind.padEnd(15), (item.source ?? '-').padEnd(10), item.event, item.tool_name ? `tool=${item.tool_name}` : '',
    item.action ? `action=${item.action}` : '', item.tool_invocation_id ? `call=${item.tool_invocation_id}` : '']
    .filter((part) => part !== '').join('  ');

export function printTimeline(ledger: CorrelationLedger, session: string, print: (line: string) => void): void {
  const anchor = { key: 'session_id' as const, value: session };
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = ledger.timeline(anchor, cursor, TELEMETRY_LIMITS.correlationPageMax);
    for (const item of page.items) print(line(item));
    count += page.items.length;
    cursor = page.next_cursor;
  } while (cursor);
  if (count === 0) {
    print(`no records for session ${session}`);
    return;
  }
  cursor = undefined;
  const conflicts: string[] = [];
  do {
    const page = ledger.conflicts(anchor, cursor, TELEMETRY_LIMITS.correlationPageMax);
    for (const c of page.items) {
      conflicts.push(`${c.kind === 'no_hook_verdict' ? 'NO HOOK VERDICT' : 'RAN AFTER BLOCK'}  ${line(c.event)}`);
    }
    cursor = page.next_cursor;
  } while (cursor);
  print(`${count} records; ${conflicts.length} conflicts`);
  for (const c of conflicts) print(c);
}
