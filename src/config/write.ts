// Writing config.yaml. Edits go through the `yaml` document API so the operator's comments and layout
// survive; the result is validated as a whole before it replaces the file atomically.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { writeFileAtomic } from '../util/atomic-write.js';
import { ConfigError, validateConfigObject } from './load.js';
import { CURRENT_CONFIG_VERSION, type Config } from './schema.js';

/**
 * Apply `edit` to the YAML document at `path`, validate, and write atomically. Returns the new config. `check`
 * may refuse the validated result (by throwing) for rules the schema cannot express; nothing is written then.
 */
export function updateConfigFile(path: string, edit: (doc: Document) => void, check?: (config: Config) => void): Config {
  const before = readFileSync(path, 'utf8');
  const doc = parseDocument(before);
  if (doc.errors.length > 0) throw new ConfigError(`${path}: invalid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  edit(doc);
  const text = doc.toString();
  const lines = new LineCounter();
  const parsed = parseDocument(text, { lineCounter: lines });
  const config = validateConfigObject(parsed.toJS(), path, parsed, lines);
  check?.(config);
  // Another writer changed the file while we edited it: refuse rather than lose their change.
  if (readFileSync(path, 'utf8') !== before) throw new ConfigError(`${path} changed while it was being updated; try again`);
  writeFileAtomic(path, text);
  return config;
}

/** config.schema.json of this installation (emitted at build time); the same path from src/ and from dist/. */
const CONFIG_SCHEMA_URL = new URL('../../docs/schemas/config.schema.json', import.meta.url);

/**
 * The first line of a new config.yaml: editors with the YAML language server check the file against the schema
 * it names. A comment, so Warden itself ignores it; left out when this installation has no schema file.
 */
function schemaLine(): string {
  return existsSync(fileURLToPath(CONFIG_SCHEMA_URL)) ? `# yaml-language-server: $schema=${CONFIG_SCHEMA_URL.href}\n` : '';
}

export const DEFAULT_CONFIG_TEXT = `${schemaLine()}# Warden configuration. Every key is documented in docs/configuration.md.
# Unknown keys are rejected at start, so a typo is reported instead of ignored.
config_version: ${CURRENT_CONFIG_VERSION}

gateway:
  # Sidecar API used by hook scripts and the CLI. Empty api_bind means 127.0.0.1.
  api_port: 18970
  api_bind: ""
  # The gateway token is read from the environment or $WARDEN_HOME/.env (WARDEN_GATEWAY_TOKEN).
  # token_env: MY_TOKEN_VARIABLE

guardrail:
  # LLM guardrail proxy that agents use as their model endpoint.
  host: 127.0.0.1
  port: 4000
  # observe: record verdicts only; action: enforce them.
  mode: action
  rule_pack: default
  connector: claudecode

openshell:
  enabled: false

fleet:
  enabled: false
`;
