// `warden proxy key`: the proxy master key, for agents that can only be given an OpenAI-style API key.
import type { Command } from 'commander';

export function registerProxy(program: Command): void {
  const proxy = program.command('proxy').description('guardrail proxy tools');
  proxy
    .command('key')
    .description('print the proxy master key (use it as the API key of an agent pointed at the proxy)')
    .action(async () => {
      const { mkdirSync } = await import('node:fs');
      const { wardenPaths } = await import('../../config/home.js');
      const { deriveMasterKey } = await import('../../proxy/master-key.js');
      const paths = wardenPaths();
      mkdirSync(paths.home, { recursive: true, mode: 0o700 });
      process.stdout.write(`${await deriveMasterKey(paths.deviceKey)}\n`);
    });
}
