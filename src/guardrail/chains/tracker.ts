// Ordered-chain detection over authenticated hook events, durable in SQLite (spec "Inspection", ordered
// chains). The caller classifies each pre-tool and post-tool hook event of a known (connector, session) and
// calls observe(); inspect, proxy, router and OTLP traffic never reach the tracker.
//
// Per-session state is cached in memory and written through: a session that holds chain state costs one
// small UPDATE per event (its event counter), and a session that holds none, almost every session, costs no
// SQL at all once cached. The cache assumes this tracker is the only writer of its tables.
import type Database from 'better-sqlite3';
import { LONGEST_WINDOW_MS, type ChainId, type ChainMatch } from './chains.js';
import {
  addReceipt, emptyState, expire, isEmpty, matchFinals, propose, replay, settle, type DenyReceipt, type SessionState,
} from './session.js';
import type { ChainSignal } from './signals.js';

export interface ChainEvent {
  connector: string;
  sessionId: string;
  phase: 'pre_tool' | 'post_tool';
  toolCallId?: string;
  /** fingerprintOf(tool, facts) of the tool call, on both its pre-tool and its post-tool event. */
  fingerprint: string;
  signals: ReadonlySet<ChainSignal>;
  /** post_tool: false when the tool reported failure; undefined when unknown. */
  succeeded?: boolean;
  /** Epoch ms. */
  at: number;
}

export interface ChainOutcome {
  /** Chains whose final step this pre-tool event is (always empty for post-tool events and replays). */
  matches: ChainMatch[];
  /** The caller blocked this exact call earlier in the session: repeat that decision, report no new finding. */
  replayedDeny?: DenyReceipt;
}

export interface ChainTrackerOptions {
  /** Sessions kept in memory; others are read back from SQLite when they next send an event. */
  maxCachedSessions?: number;
}

interface CachedSession {
  state: SessionState;
  /** Whether chain_sessions has a row for it. */
  stored: boolean;
}

interface SessionRow {
  event_count: number;
  state: string;
}

type StoredState = Pick<SessionState, 'steps' | 'proposals' | 'receipts'>;

/** Idle sessions are deleted at most this often, a bounded batch at a time, so no event pays for a sweep. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 256;

export class ChainTracker {
  private readonly cache = new Map<string, CachedSession>();
  private readonly maxCachedSessions: number;
  private nextPruneAt = 0;
  private readonly select: Database.Statement<[string, string], SessionRow>;
  private readonly upsert: Database.Statement<[string, string, number, number, string]>;
  private readonly touch: Database.Statement<[number, number, string, string]>;
  private readonly remove: Database.Statement<[string, string]>;
  private readonly prune: Database.Statement<[number, number]>;

  /** `db` is opened with CHAIN_SCHEMA (src/db/open.ts), so its tables exist. */
  constructor(db: Database.Database, options: ChainTrackerOptions = {}) {
    this.maxCachedSessions = options.maxCachedSessions ?? 4096;
    this.select = db.prepare('SELECT event_count, state FROM chain_sessions WHERE connector = ? AND session_id = ?');
    this.upsert = db.prepare(
      `INSERT INTO chain_sessions (connector, session_id, event_count, updated_at, state) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (connector, session_id) DO UPDATE
       SET event_count = excluded.event_count, updated_at = excluded.updated_at, state = excluded.state`,
    );
    this.touch = db.prepare('UPDATE chain_sessions SET event_count = ?, updated_at = ? WHERE connector = ? AND session_id = ?');
    this.remove = db.prepare('DELETE FROM chain_sessions WHERE connector = ? AND session_id = ?');
    this.prune = db.prepare(
      'DELETE FROM chain_sessions WHERE rowid IN (SELECT rowid FROM chain_sessions WHERE updated_at < ? LIMIT ?)',
    );
  }

  observe(e: ChainEvent): ChainOutcome {
    const session = this.load(e.connector, e.sessionId);
    const { state } = session;
    state.events++;
    let changed = expire(state, e.at);
    const outcome: ChainOutcome = { matches: [] };
    if (e.phase === 'pre_tool') {
      const replayed = replay(state, e.fingerprint);
      if (replayed) {
        outcome.replayedDeny = replayed;
      } else {
        outcome.matches = matchFinals(state, e.signals);
        changed = propose(state, e) || changed;
      }
    } else {
      changed = settle(state, e) || changed;
    }
    this.save(e.connector, e.sessionId, session, changed, e.at);
    this.pruneIdleSessions(e.at);
    return outcome;
  }

  /** The caller blocked the call with this fingerprint because of `chain`: replay that if it comes again. */
  recordDeny(connector: string, sessionId: string, fingerprint: string, chain: ChainId, reason: string, at: number): void {
    const session = this.load(connector, sessionId);
    addReceipt(session.state, { fingerprint, chain, reason, at });
    this.save(connector, sessionId, session, true, at);
  }

  private load(connector: string, sessionId: string): CachedSession {
    const key = `${connector}\0${sessionId}`;
    let session = this.cache.get(key);
    if (session) {
      this.cache.delete(key); // re-inserted below: Map order is the least-recently-used order
    } else {
      const row = this.select.get(connector, sessionId);
      session = row
        ? { state: { events: row.event_count, ...(JSON.parse(row.state) as StoredState) }, stored: true }
        : { state: emptyState(), stored: false };
      if (this.cache.size >= this.maxCachedSessions) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, session);
    return session;
  }

  /** Write-through. A session without state needs no row: its event count only matters relative to a step. */
  private save(connector: string, sessionId: string, session: CachedSession, changed: boolean, at: number): void {
    const { state } = session;
    if (isEmpty(state)) {
      if (session.stored) this.remove.run(connector, sessionId);
      session.stored = false;
    } else if (changed || !session.stored) {
      const stored: StoredState = { steps: state.steps, proposals: state.proposals, receipts: state.receipts };
      this.upsert.run(connector, sessionId, state.events, at, JSON.stringify(stored));
      session.stored = true;
    } else {
      this.touch.run(state.events, at, connector, sessionId);
    }
  }

  private pruneIdleSessions(at: number): void {
    if (at < this.nextPruneAt) return;
    const { changes } = this.prune.run(at - LONGEST_WINDOW_MS, PRUNE_BATCH);
    // A full batch leaves idle rows behind: prune again on the next event (one bounded batch per event, which
    // outpaces the at most one session an event creates) until the backlog is gone, then once a minute.
    this.nextPruneAt = changes === PRUNE_BATCH ? at : at + PRUNE_EVERY_MS;
  }
}
