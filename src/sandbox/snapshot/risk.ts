// The kinds of change a reviewer should look at before accepting a session, by path (and, for executables, by
// mode and first bytes): git hooks, CI definitions, dependency manifests and lockfiles, executables, and files
// that look like they hold secrets. Plain name tables and anchored regexes (linear time).
import { basename } from 'node:path';

export type RiskKind = 'git hooks' | 'CI files' | 'dependency manifests' | 'executables' | 'secrets-like files';

/** The order the risk line names the kinds in. */
export const RISK_KINDS: readonly RiskKind[] = ['git hooks', 'CI files', 'dependency manifests', 'executables', 'secrets-like files'];

const HOOK_DIRS = ['.git/hooks/', '.husky/', '.githooks/'];
const HOOK_FILES = new Set(['.git/config', '.pre-commit-config.yaml', 'lefthook.yml', 'lefthook.yaml', '.lefthook.yml']);

const CI_DIRS = ['.github/workflows/', '.github/actions/', '.circleci/', '.buildkite/', '.gitlab/ci/', '.forgejo/workflows/', '.gitea/workflows/', '.woodpecker/'];
const CI_FILES = new Set(['.gitlab-ci.yml', '.travis.yml', 'Jenkinsfile', 'azure-pipelines.yml', 'bitbucket-pipelines.yml', '.drone.yml', 'appveyor.yml', 'cloudbuild.yaml']);

const MANIFESTS = new Set([
  'package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'bun.lockb', 'bun.lock', '.npmrc', '.yarnrc.yml',
  'requirements.txt', 'requirements-dev.txt', 'constraints.txt', 'pyproject.toml', 'poetry.lock', 'uv.lock', 'Pipfile', 'Pipfile.lock', 'setup.py', 'setup.cfg',
  'Cargo.toml', 'Cargo.lock', 'go.mod', 'go.sum', 'Gemfile', 'Gemfile.lock', 'composer.json', 'composer.lock',
  'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts', 'gradle.lockfile', 'Package.swift', 'Package.resolved', 'mix.exs', 'mix.lock', 'deno.json', 'deno.lock', 'flake.nix', 'flake.lock',
]);
const MANIFEST_PATTERNS = [/^requirements[\w.-]*\.(?:txt|in)$/, /\.csproj$/, /^packages\.lock\.json$/, /\.gemspec$/];

const SECRET_FILES = new Set(['.env', '.netrc', '.pgpass', '.git-credentials', 'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'credentials', 'credentials.json', 'secrets.json', 'secrets.yaml', 'secrets.yml', 'service-account.json', '.htpasswd']);
const SECRET_PATTERNS = [/^\.env\.[\w.-]+$/, /\.(?:pem|key|p12|pfx|jks|keystore|kdbx|asc|gpg)$/, /^id_\w+$/, /^.+\.tfvars$/];
const SECRET_DIRS = ['.ssh/', '.aws/', '.gnupg/', '.docker/'];

const underAny = (path: string, dirs: readonly string[]): boolean => dirs.some((d) => path.startsWith(d) || path.includes(`/${d}`));

/** The kinds a changed path belongs to by its name (executables are decided with its mode and content). */
export function kindsByPath(path: string): RiskKind[] {
  const name = basename(path);
  const kinds: RiskKind[] = [];
  if (path.startsWith(HOOK_DIRS[0]!) || underAny(path, HOOK_DIRS.slice(1)) || HOOK_FILES.has(path) || HOOK_FILES.has(name)) kinds.push('git hooks');
  if (underAny(path, CI_DIRS) || CI_FILES.has(name)) kinds.push('CI files');
  if (MANIFESTS.has(name) || MANIFEST_PATTERNS.some((re) => re.test(name))) kinds.push('dependency manifests');
  if (SECRET_FILES.has(name) || SECRET_PATTERNS.some((re) => re.test(name)) || underAny(path, SECRET_DIRS)) kinds.push('secrets-like files');
  return kinds;
}

/** `risk: git hooks (.git/hooks/pre-commit), CI files (.github/workflows/ci.yml +1 more)` or a line saying none. */
export function riskLine(touched: Map<RiskKind, string[]>): string {
  const parts = RISK_KINDS.filter((kind) => (touched.get(kind)?.length ?? 0) > 0).map((kind) => {
    const paths = touched.get(kind)!;
    return `${kind} (${paths[0]}${paths.length > 1 ? ` +${paths.length - 1} more` : ''})`;
  });
  return parts.length === 0 ? 'risk: none (no git hooks, CI files, dependency manifests, executables or secrets-like files touched)' : `risk: ${parts.join(', ')}`;
}
