// `warden policy eval|test|reload`: ask the policy a question, run the operator's Rego unit tests, and make
// the running gateway reload its policy_dir. eval and test build the policy here exactly as the gateway does
// (shipped modules, policy_dir, config.yaml's admission settings), so they need no running gateway.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { PostAnswer } from '../local-gateway.js';

interface EvalOptions { input?: string; dir?: string }

/** The policy_dir in force: `--dir` when given, else config.yaml's. */
async function policyDirOf(dir: string | undefined) {
  const { loadSettings } = await import('../../config/settings.js');
  const { resolvePolicyDir } = await import('../../policy/files.js');
  const { homeOf } = await import('../../scanners/paths.js');
  const settings = loadSettings({ env: process.env });
  const policyDir = dir !== undefined ? resolve(dir) : resolvePolicyDir(settings.config.policy_dir, settings.paths.home, homeOf(process.env));
  return { config: settings.config, policyDir };
}

/** The --input document; a file that is not JSON is the operator's mistake, said in one line. */
async function readInput(file: string): Promise<unknown> {
  const { WardenError } = await import('../../errors.js');
  try {
    return JSON.parse(readFileSync(file === '-' ? 0 : file, 'utf8')) as unknown;
  } catch (err) {
    throw new WardenError('WARDEN_ERR_POLICY_INPUT', `--input ${file}: ${(err as Error).message}`);
  }
}

export function registerPolicy(program: Command): void {
  const policy = program.command('policy').description('the Rego policy: evaluate, test, reload');

  policy
    .command('eval <expression>')
    .description('evaluate a Rego expression (e.g. data.warden.admission.decision) against the policy and print its value as JSON')
    .option('-i, --input <file>', 'the input document, a JSON file (`-` for standard input)')
    .option('-d, --dir <folder>', 'a policy folder to use instead of config.yaml\'s policy_dir')
    .action(async (expression: string, options: EvalOptions) => {
      const { PolicyService } = await import('../../policy/service.js');
      const { config, policyDir } = await policyDirOf(options.dir);
      const input = options.input === undefined ? undefined : await readInput(options.input);
      const value = new PolicyService(config, { policyDir, cache: false }).query(expression, input);
      if (value === undefined) {
        process.stderr.write(`warden: ${expression} is undefined for this input\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    });

  policy
    .command('test [folder]')
    .description('run the test_ rules of a policy folder (default: config.yaml\'s policy_dir), as `opa test` does')
    .action(async (folder: string | undefined) => {
      const { runPolicyTests } = await import('../../policy/unit-tests.js');
      const { config, policyDir } = await policyDirOf(folder);
      if (policyDir === undefined) {
        process.stderr.write('warden: no policy folder: give one, or set policy_dir in config.yaml\n');
        process.exitCode = 1;
        return;
      }
      const results = runPolicyTests(config, policyDir);
      for (const r of results) {
        process.stdout.write(`${r.name}: ${r.outcome} (${r.ms.toFixed(1)} ms)${r.detail ? `\n  ${r.detail}` : ''}\n`);
      }
      const passed = results.filter((r) => r.outcome === 'PASS').length;
      process.stdout.write(`${'-'.repeat(40)}\n${passed === results.length ? 'PASS' : 'FAIL'}: ${passed}/${results.length}\n`);
      if (passed !== results.length || results.length === 0) process.exitCode = 1;
    });

  policy
    .command('reload')
    .description('make the running gateway reload its policy_dir (a module that does not compile leaves the running policy)')
    .action(async () => {
      const { describeFetchError, localGateway, postJson } = await import('../local-gateway.js');
      const gateway = localGateway();
      let answer: PostAnswer<{ policy_dir: string | null; error: string; code: string }>;
      try {
        answer = await postJson(gateway, '/policy/reload');
      } catch (err) {
        process.stderr.write(`warden: gateway not reachable at ${gateway.url}: ${describeFetchError(err)}\n`);
        process.exitCode = 1;
        return;
      }
      const { body } = answer;
      if (!answer.ok) {
        process.stderr.write(`warden: reload refused, the running policy stays: ${body.error ?? `HTTP ${answer.status}`}${body.code ? ` (${body.code})` : ''}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`policy reloaded${body.policy_dir ? ` from ${body.policy_dir}` : ' (shipped modules only)'}\n`);
    });
}
