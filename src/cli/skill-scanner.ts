#!/usr/bin/env node
// `warden-skill-scanner`: the skill scanner HTTP server (spec document 3).
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { VERSION } from '../version.js';

const port = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
};
const positive = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 64) throw new InvalidArgumentError('must be between 1 and 64');
  return n;
};

interface Options { host: string; port: number; reload?: boolean; workers?: number; corsOrigin?: string[]; logLevel: string }

const program = new Command('warden-skill-scanner')
  .description('HTTP server that scans agent skills (SKILL.md folders and ZIP uploads) before they are installed')
  .version(VERSION)
  .option('--host <host>', 'address to listen on', 'localhost')
  .option('--port <port>', 'port to listen on (0: any free port)', port, 8000)
  .option('--reload', 'restart when the built code changes (development)')
  .option('--workers <n>', 'scan worker threads (default: one per core)', positive)
  .option('--cors-origin <origin...>', 'allow browser calls from these origins (CORS)')
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'info')
  .addHelpText('after', `
Prints "ready http://HOST:PORT" once it accepts connections. API documentation: /docs and /redoc.
Environment: SKILL_SCANNER_LLM_API_KEY, SKILL_SCANNER_LLM_MODEL, SKILL_SCANNER_LLM_BASE_URL (LLM judge),
AI_GUARD_API_KEY (AI analyzer), SKILL_SCANNER_OSV_URL (OSV API), SKILL_SCANNER_ALLOWED_ROOTS (":"-separated
folders that scan paths must lie in).`)
  .action(async (options: Options) => {
    if (options.reload) {
      // Development: run the server under node --watch on the built code, restarting it on every rebuild.
      const args = process.argv.slice(2).filter((a) => a !== '--reload');
      const script = fileURLToPath(import.meta.url);
      const child = spawn(process.execPath, ['--watch-path', dirname(dirname(script)), script, ...args], { stdio: 'inherit' });
      for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
      child.on('exit', (code) => process.exit(code ?? 0));
      return;
    }
    const { pino, destination } = await import('pino');
    const { buildScannerServer } = await import('../skill-scanner/server.js');
    const logger = pino({ level: options.logLevel }, destination({ fd: 2, sync: true }));
    const { app } = await buildScannerServer({ env: process.env, host: options.host, version: VERSION, logger, workers: options.workers, corsOrigins: options.corsOrigin });
    const { isLoopbackAddress } = await import('../config/bind.js');
    if (!isLoopbackAddress(options.host) && !process.env.SKILL_SCANNER_ALLOWED_ROOTS) {
      logger.warn({ host: options.host }, 'listening beyond loopback without SKILL_SCANNER_ALLOWED_ROOTS: any caller can have any readable folder scanned');
    }
    await app.listen({ host: options.host, port: options.port });
    const address = app.server.address() as { address: string; port: number };
    const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
    process.stdout.write(`ready http://${shownHost}:${address.port}\n`);
    const { stopOnSignals } = await import('./stop-on-signals.js');
    stopOnSignals(() => app.close());
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`warden-skill-scanner: ${(err as Error).message}\n`);
  process.exit(1);
}
