#!/usr/bin/env node
// `warden-skill-scanner`: the skill scanner HTTP server (spec document 3).
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { AGENT_SKILL_FOLDERS } from '../scanners/paths.js';
import { VERSION } from '../version.js';
import { describeFailure } from './failure.js';

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

interface Options { host: string; port: number; reload?: boolean; workers?: number; corsOrigin?: string[]; allowRoot?: string[]; logLevel: string }

/** --allow-root may be given many times; each is resolved against the directory the command runs in. */
const collectRoot = (value: string, previous: string[] = []): string[] => [...previous, resolve(value)];

const program = new Command('warden-skill-scanner')
  .description('HTTP server that scans agent skills (SKILL.md folders and ZIP uploads) before they are installed')
  .version(VERSION)
  .option('--host <host>', 'address to listen on', 'localhost')
  .option('--port <port>', 'port to listen on (0: any free port)', port, 8000)
  .option('--reload', 'restart when the built code changes (development)')
  .option('--workers <n>', 'scan worker threads (default: one per core)', positive)
  .option('--cors-origin <origin...>', 'allow browser calls from these origins (CORS)')
  .option('--allow-root <path>', 'also allow scans of this folder (repeatable)', collectRoot)
  .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'info')
  .addHelpText('after', `
Prints "ready http://HOST:PORT" once it accepts connections. API documentation: /docs and /redoc.

Scan paths must be absolute and lie in the allowed roots (the API has no authentication). By default: the
directory the server runs in and the user's agent skill folders:
  ${AGENT_SKILL_FOLDERS.join('\n  ')}
SKILL_SCANNER_ALLOWED_ROOTS replaces that default; --allow-root adds to either.

Environment: SKILL_SCANNER_LLM_API_KEY, SKILL_SCANNER_LLM_MODEL, SKILL_SCANNER_LLM_BASE_URL (LLM judge),
AI_GUARD_API_KEY (AI analyzer), SKILL_SCANNER_OSV_URL (OSV API), SKILL_SCANNER_ALLOWED_ROOTS (":"-separated
folders that scan paths must lie in, instead of the default above).`)
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
    const { app, context } = await buildScannerServer({
      env: process.env, host: options.host, version: VERSION, logger, workers: options.workers, corsOrigins: options.corsOrigin, allowRoots: options.allowRoot,
    });
    logger.info({ roots: context.roots }, 'scan paths are confined to these folders');
    const { isLoopbackAddress } = await import('../config/bind.js');
    if (!isLoopbackAddress(options.host)) {
      logger.warn({ host: options.host }, 'listening beyond loopback: the API has no authentication, so anyone who can reach it can have the folders under the allowed roots scanned');
    }
    const { listenOn } = await import('../util/listen.js');
    await listenOn(app, options.host, options.port, 'warden-skill-scanner');
    const address = app.server.address() as { address: string; port: number };
    const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
    // Signals are handled before `ready` is printed: a script may send SIGTERM as soon as it reads it.
    const { stopOnSignals } = await import('./stop-on-signals.js');
    stopOnSignals(() => app.close());
    process.stdout.write(`ready http://${shownHost}:${address.port}\n`);
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.stderr.write(`warden-skill-scanner: ${describeFailure(err)}\n`);
  process.exit(1);
}
