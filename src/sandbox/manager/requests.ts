// The request shapes of the manager's operations (the routes' TypeBox schemas in gateway/routes/sandbox.ts
// describe the same fields for validation and OpenAPI).
import type { RunOptions } from '../ports.js';

export interface CreateRequest extends Omit<RunOptions, 'project' | 'harness'> {
  harness: string;
  project: string;
  name?: string;
  no_snapshot?: boolean;
  no_build?: boolean;
  llm?: { profile?: string; credentials?: Record<string, string>; bedrock_region?: string };
  credentials?: { name: string; value: string; host: string; port?: number }[];
  env?: Record<string, string>;
}

export interface StartRequest {
  no_snapshot?: boolean;
  new_snapshot?: boolean;
}

export interface UndoRequest {
  preview?: boolean;
  keep_refs?: boolean;
  stop?: boolean;
  restart?: boolean;
}

export interface AcceptRequest {
  snapshot_created_at?: string;
  session?: number;
}

export interface WorkspaceReport {
  kind?: 'upload' | 'pull';
  source?: string;
  files?: number;
  bytes?: number;
}

export interface ExplainQuery extends Partial<RunOptions> {
  sandbox?: string;
  run?: boolean;
  run_env?: string[];
  run_env_withheld?: string[];
  run_credential?: string[];
  run_llm_profile?: string;
  run_bedrock_region?: string;
}
