// What the scanning commands (`warden mcp scan`, `warden plugin scan`) need from the local installation: the
// configuration (config.yaml and .env of $WARDEN_HOME when it exists, the built-in defaults otherwise: a scan
// must work before the gateway was ever started, and never creates config.yaml), the guardrail inspector built
// from the configured rule pack as the gateway builds it, and the MCP tool-hash store the gateway's scans share.
import { existsSync, mkdirSync } from 'node:fs';
import { wardenPaths } from '../config/home.js';
import { parseConfig } from '../config/load.js';
import { loadSettings } from '../config/settings.js';
import { DEFAULT_CONFIG_TEXT } from '../config/write.js';
import { InspectionEngine } from '../guardrail/engine.js';
import { Inspector } from '../guardrail/inspector.js';
import { rulePackDirs } from '../guardrail/rules/custom-packs.js';
import { loadRulePack } from '../guardrail/rules/load.js';
import { verdictThresholds } from '../guardrail/thresholds.js';
import { ToolHashStore } from '../scanners/mcp/tool-hashes.js';

export interface ScanContext {
  /** The process environment over $WARDEN_HOME/.env (SKILL_SCANNER_OSV_URL and the like). */
  env: Record<string, string | undefined>;
  inspector: Inspector;
  /** The tool-hash store in $WARDEN_HOME/mcp.db (the folder is created when missing). */
  openToolHashes(): ToolHashStore;
}

export function localScanContext(processEnv: NodeJS.ProcessEnv = process.env): ScanContext {
  const paths = wardenPaths(processEnv);
  const settings = existsSync(paths.config) ? loadSettings({ env: processEnv }) : undefined;
  const config = settings?.config ?? parseConfig(DEFAULT_CONFIG_TEXT, 'built-in defaults');
  const engine = new InspectionEngine(loadRulePack(config.guardrail.rule_pack, rulePackDirs(config, paths.home, paths.rulesDir)));
  return {
    env: settings?.env ?? { ...processEnv },
    inspector: new Inspector(engine, verdictThresholds(config)),
    openToolHashes() {
      mkdirSync(paths.home, { recursive: true, mode: 0o700 });
      return new ToolHashStore(paths.mcpDb);
    },
  };
}
