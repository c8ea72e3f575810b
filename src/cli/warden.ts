#!/usr/bin/env node
// The `warden` command (also installed as `warden-gateway`).
import { basename } from 'node:path';
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { describeFailure } from './failure.js';
import { registerAlerts } from './commands/alerts.js';
import { registerAudit } from './commands/audit.js';
import { registerDiscover } from './commands/discover.js';
import { registerDoctor } from './commands/doctor.js';
import { registerFleet } from './commands/fleet.js';
import { registerMcp } from './commands/mcp.js';
import { registerMigrate } from './commands/migrate.js';
import { registerPlugin } from './commands/plugin.js';
import { registerPolicy } from './commands/policy.js';
import { registerProxy } from './commands/proxy.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerScan } from './commands/scan.js';
import { registerSetup } from './commands/setup.js';
import { registerSkill } from './commands/skill.js';
import { registerStart } from './commands/start.js';
import { registerStatus } from './commands/status.js';

const name = basename(process.argv[1] ?? 'warden').replace(/\.[jt]s$/, '');
const program = new Command(name === 'warden-gateway' ? name : 'warden')
  .description('Warden: security gateway for AI coding agents')
  .version(VERSION)
  .showHelpAfterError();

registerStart(program);
registerStatus(program);
registerDoctor(program);
registerSetup(program);
registerAudit(program);
registerAlerts(program);
registerProxy(program);
registerSkill(program);
registerMcp(program);
registerPlugin(program);
registerScan(program);
registerFleet(program);
registerPolicy(program);
registerSandbox(program);
registerMigrate(program);
registerDiscover(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // Operator errors get one line with their code; anything else keeps its stack for a bug report.
  process.stderr.write(`${program.name()}: ${describeFailure(err)}\n`);
  process.exit(1);
}
