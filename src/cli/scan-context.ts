// What the scanning commands (`warden mcp scan`, `warden plugin scan`) need from the local installation: the
// settings (config.yaml and .env of $WARDEN_HOME, never created here), the guardrail inspector built from the
// configured rule pack, as the gateway builds it, and the MCP tool-hash store the gateway's scans share.
import { mkdirSync } from 'node:fs';
import { loadSettings, type Settings } from '../config/settings.js';
import { InspectionEngine } from '../guardrail/engine.js';
import { Inspector } from '../guardrail/inspector.js';
import { loadRulePack } from '../guardrail/rules/load.js';
import { verdictThresholds } from '../guardrail/thresholds.js';
import { ToolHashStore } from '../scanners/mcp/tool-hashes.js';

export interface ScanContext {
  settings: Settings;
  inspector: Inspector;
  /** The tool-hash store in $WARDEN_HOME/mcp.db (the folder is created when missing). */
  openToolHashes(): ToolHashStore;
}

export function localScanContext(env: NodeJS.ProcessEnv = process.env): ScanContext {
  const settings = loadSettings({ env });
  const engine = new InspectionEngine(loadRulePack(settings.config.guardrail.rule_pack, [settings.paths.rulesDir]));
  return {
    settings,
    inspector: new Inspector(engine, verdictThresholds(settings.config)),
    openToolHashes() {
      mkdirSync(settings.paths.home, { recursive: true, mode: 0o700 });
      return new ToolHashStore(settings.paths.mcpDb);
    },
  };
}
