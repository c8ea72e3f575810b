// What each MCP server's tools looked like the last time they were scanned: a SHA-256 of every tool definition
// (name, description, schemas, annotations, as canonical JSON), kept in `$WARDEN_HOME/mcp.db`. A definition that
// differs from the recorded one is a rug pull: the server was approved with one description and now gives the
// model another. The new hash replaces the old once it is reported (the audit trail keeps the report).
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openDatabase } from '../../db/open.js';
import type { Schema } from '../../db/migrate.js';
import type { McpTool } from './client.js';
import { canonicalJson } from '../../util/canonical-json.js';

const MCP_SCHEMA: Schema = {
  name: 'MCP scan database',
  migrations: [
    `CREATE TABLE tool_hashes (
       server TEXT NOT NULL,
       tool TEXT NOT NULL,
       sha256 TEXT NOT NULL,
       first_seen TEXT NOT NULL,
       last_seen TEXT NOT NULL,
       PRIMARY KEY (server, tool)
     ) STRICT;`,
  ],
};

export type ToolChange = 'new' | 'unchanged' | 'changed';

export interface ToolRecord {
  name: string;
  sha256: string;
  change: ToolChange;
  /** The hash recorded before this scan, when it differs. */
  previous_sha256?: string;
}

export function toolHash(tool: McpTool): string {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool;
  return createHash('sha256').update(canonicalJson({ name, title, description, inputSchema, outputSchema, annotations })).digest('hex');
}

export class ToolHashStore {
  private readonly db: Database.Database;

  constructor(path: string) {
    this.db = openDatabase(path, { schema: MCP_SCHEMA });
  }

  /** Compares the tools with the recorded hashes of `server` (its URL) and records the new ones. */
  record(server: string, tools: readonly McpTool[], now = new Date()): ToolRecord[] {
    const select = this.db.prepare<[string, string], { sha256: string }>('SELECT sha256 FROM tool_hashes WHERE server = ? AND tool = ?');
    const upsert = this.db.prepare(
      `INSERT INTO tool_hashes (server, tool, sha256, first_seen, last_seen) VALUES (@server, @tool, @sha256, @now, @now)
       ON CONFLICT (server, tool) DO UPDATE SET sha256 = excluded.sha256, last_seen = excluded.last_seen`,
    );
    return this.db.transaction(() =>
      tools.map((tool): ToolRecord => {
        const sha256 = toolHash(tool);
        const before = select.get(server, tool.name)?.sha256;
        upsert.run({ server, tool: tool.name, sha256, now: now.toISOString() });
        if (before === undefined) return { name: tool.name, sha256, change: 'new' };
        return before === sha256 ? { name: tool.name, sha256, change: 'unchanged' } : { name: tool.name, sha256, change: 'changed', previous_sha256: before };
      }),
    ).immediate();
  }

  close(): void {
    this.db.close();
  }
}
