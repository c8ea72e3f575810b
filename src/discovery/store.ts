// Discovery history in $WARDEN_HOME/discovery.db: every scan (or posted report) as a whole, and each component
// (ecosystem and name) with when it was first and last seen and where, scan by scan. The latest scan is the
// current snapshot; a component missing from it has been removed (`present: false`) but keeps its history.
// Only the newest scans are kept (limits.ts); a component's first-seen time survives the pruning.
import type Database from 'better-sqlite3';
import { openDatabase } from '../db/open.js';
import type { Schema } from '../db/migrate.js';
import { DISCOVERY_LIMITS } from './limits.js';
import type { ComponentHistory, ComponentLocations, ComponentSummary } from './answers.js';
import type { ScanReport } from './types.js';

export const DISCOVERY_SCHEMA: Schema = {
  name: 'discovery database',
  migrations: [
    `CREATE TABLE scans (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       id TEXT NOT NULL UNIQUE,
       source TEXT NOT NULL,
       host TEXT NOT NULL,
       finished_at TEXT NOT NULL,
       report TEXT NOT NULL
     );
     CREATE TABLE components (
       ecosystem TEXT NOT NULL,
       name TEXT NOT NULL,
       first_seen TEXT NOT NULL,
       last_seen TEXT NOT NULL,
       last_scan_seq INTEGER NOT NULL,
       PRIMARY KEY (ecosystem, name)
     );
     CREATE TABLE sightings (
       scan_seq INTEGER NOT NULL REFERENCES scans (seq) ON DELETE CASCADE,
       ecosystem TEXT NOT NULL,
       name TEXT NOT NULL,
       versions TEXT NOT NULL,
       locations TEXT NOT NULL,
       PRIMARY KEY (scan_seq, ecosystem, name)
     );
     CREATE INDEX sightings_component ON sightings (ecosystem, name, scan_seq);`,
  ],
};

interface ComponentRow { ecosystem: string; name: string; first_seen: string; last_seen: string; last_scan_seq: number }
interface SightingRow { versions: string; locations: string }

export class DiscoveryStore {
  private readonly db: Database.Database;

  constructor(path: string) {
    this.db = openDatabase(path, { schema: DISCOVERY_SCHEMA });
  }

  /** Records a scan or report; its components' first/last seen follow. */
  record(report: ScanReport): void {
    const at = report.finished_at;
    this.db.transaction(() => {
      const { lastInsertRowid } = this.db
        .prepare('INSERT INTO scans (id, source, host, finished_at, report) VALUES (?, ?, ?, ?, ?)')
        .run(report.scan_id, report.source, report.host, at, JSON.stringify(report));
      const seq = Number(lastInsertRowid);
      const upsert = this.db.prepare(
        `INSERT INTO components (ecosystem, name, first_seen, last_seen, last_scan_seq) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (ecosystem, name) DO UPDATE SET last_seen = excluded.last_seen, last_scan_seq = excluded.last_scan_seq`,
      );
      const sighting = this.db.prepare('INSERT OR REPLACE INTO sightings (scan_seq, ecosystem, name, versions, locations) VALUES (?, ?, ?, ?, ?)');
      for (const c of report.components) {
        upsert.run(c.ecosystem, c.name, at, at, seq);
        sighting.run(seq, c.ecosystem, c.name, JSON.stringify(c.versions), JSON.stringify(c.locations));
      }
      this.db.prepare('DELETE FROM scans WHERE seq <= ?').run(seq - DISCOVERY_LIMITS.scansKept);
    }).immediate();
  }

  private latestSeq(): number | undefined {
    return (this.db.prepare('SELECT max(seq) AS seq FROM scans').get() as { seq: number | null }).seq ?? undefined;
  }

  /** The latest scan or report, or undefined before the first. */
  latest(): ScanReport | undefined {
    const row = this.db.prepare('SELECT report FROM scans ORDER BY seq DESC LIMIT 1').get() as { report: string } | undefined;
    return row && (JSON.parse(row.report) as ScanReport);
  }

  components(): ComponentSummary[] {
    const latest = this.latestSeq();
    const rows = this.db.prepare('SELECT * FROM components ORDER BY ecosystem, name').all() as ComponentRow[];
    return rows.map((row) => {
      const seen = this.sighting(row.last_scan_seq, row.ecosystem, row.name);
      return {
        ecosystem: row.ecosystem, name: row.name, first_seen: row.first_seen, last_seen: row.last_seen,
        present: row.last_scan_seq === latest, versions: seen?.versions ?? [], locations: seen?.locations.length ?? 0,
      };
    });
  }

  private component(ecosystem: string, name: string): ComponentRow | undefined {
    return this.db.prepare('SELECT * FROM components WHERE ecosystem = ? AND name = ?').get(ecosystem, name) as ComponentRow | undefined;
  }

  private sighting(seq: number, ecosystem: string, name: string): { versions: string[]; locations: string[] } | undefined {
    const row = this.db.prepare('SELECT versions, locations FROM sightings WHERE scan_seq = ? AND ecosystem = ? AND name = ?').get(seq, ecosystem, name) as SightingRow | undefined;
    return row && { versions: JSON.parse(row.versions) as string[], locations: JSON.parse(row.locations) as string[] };
  }

  /** Where the component was last seen, or undefined for a component never seen. */
  locations(ecosystem: string, name: string): ComponentLocations | undefined {
    const row = this.component(ecosystem, name);
    if (!row) return undefined;
    const scan = this.db.prepare('SELECT id FROM scans WHERE seq = ?').get(row.last_scan_seq) as { id: string } | undefined;
    const seen = this.sighting(row.last_scan_seq, ecosystem, name);
    return {
      ecosystem, name, present: row.last_scan_seq === this.latestSeq(), scan_id: scan?.id ?? '', seen_at: row.last_seen,
      versions: seen?.versions ?? [], locations: seen?.locations ?? [],
    };
  }

  /** The component scan by scan (newest first, at most `limit` scans), or undefined for a component never seen. */
  history(ecosystem: string, name: string, limit: number): ComponentHistory | undefined {
    const row = this.component(ecosystem, name);
    if (!row) return undefined;
    const scans = this.db.prepare(
      `SELECT s.id, s.source, s.finished_at, g.versions, g.locations FROM scans s
       LEFT JOIN sightings g ON g.scan_seq = s.seq AND g.ecosystem = ? AND g.name = ?
       WHERE s.finished_at >= ? ORDER BY s.seq DESC LIMIT ?`,
    ).all(ecosystem, name, row.first_seen, limit) as { id: string; source: string; finished_at: string; versions: string | null; locations: string | null }[];
    return {
      ecosystem, name, first_seen: row.first_seen, last_seen: row.last_seen, present: row.last_scan_seq === this.latestSeq(),
      scans: scans.map((s) => ({
        scan_id: s.id, source: s.source, at: s.finished_at, present: s.versions !== null,
        versions: s.versions === null ? [] : (JSON.parse(s.versions) as string[]),
        locations: s.locations === null ? [] : (JSON.parse(s.locations) as string[]),
      })),
    };
  }

  close(): void {
    this.db.close();
  }
}
