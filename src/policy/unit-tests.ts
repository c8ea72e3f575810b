// `warden policy test`: the operator's Rego unit tests, as `opa test` runs them. Every rule named `test_*` in the
// operator's modules is evaluated against the policy as the gateway builds it (shipped modules, the folder's
// modules and data.json, config.yaml's settings); it passes when its value is true.
import type { Config } from '../config/schema.js';
import { isOperatorError } from '../errors.js';
import { loadPolicySources } from './files.js';
import { parseModule } from './rego/parser.js';
import { PolicyService } from './service.js';

export interface PolicyTestResult {
  /** The rule's document path, `data.<package>.test_<name>`. */
  name: string;
  file: string;
  outcome: 'PASS' | 'FAIL' | 'ERROR';
  /** Why an ERROR failed (the evaluation error, with file:line). */
  detail?: string;
  ms: number;
}

/** Runs every `test_` rule of the modules in `dir`; a module that does not compile throws (WARDEN_ERR_POLICY_COMPILE). */
export function runPolicyTests(config: Pick<Config, 'admission'>, dir: string): PolicyTestResult[] {
  const service = new PolicyService(config, { policyDir: dir, cache: false });
  const { operatorModules } = loadPolicySources(dir);
  const results: PolicyTestResult[] = [];
  for (const { file, source } of operatorModules) {
    const module = parseModule(file, source);
    const names = new Set(
      module.rules
        .filter((rule) => rule.kind === 'complete' && rule.path.length === 1 && rule.path[0]!.startsWith('test_'))
        .map((rule) => ['data', ...module.pkg, rule.path[0]!].join('.')),
    );
    for (const name of names) results.push(runOne(service, name, file));
  }
  return results;
}

function runOne(service: PolicyService, name: string, file: string): PolicyTestResult {
  const started = performance.now();
  try {
    const value = service.query(name);
    return { name, file, outcome: value === true ? 'PASS' : 'FAIL', ms: performance.now() - started };
  } catch (err) {
    if (!isOperatorError(err)) throw err;
    return { name, file, outcome: 'ERROR', detail: err.message, ms: performance.now() - started };
  }
}
