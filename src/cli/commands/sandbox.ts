// `warden sandbox …`: the sandbox API from the terminal (create, ls, show, start, stop, rm, undo, review,
// accept, logs, explain), `run` (create a sandbox for the current folder and attach the terminal to it),
// `image` (the harness images in $WARDEN_HOME/images, managed locally) and `legacy-cleanup`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';

interface Options {
  [key: string]: unknown;
  json?: boolean;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function print(value: unknown, json: boolean | undefined, text: (v: never) => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text(value as never)}\n`);
}

type SandboxAnswer = Record<string, unknown> & { name: string; phase: string; harness: string; project: string; session: number; warnings?: string[] };

function describe(s: SandboxAnswer): string {
  const snapshot = s.snapshot as { created_at: string; accepted_at?: string; undone_at?: string } | null;
  const lines = [
    `${s.name}: ${s.phase} (${s.harness}, session ${s.session})`,
    `  project   ${s.project} (${String(s.workdir_mode)})`,
    `  image     ${String(s.image_id)}`,
    `  undo      ${snapshot ? `snapshot of ${snapshot.created_at}${snapshot.accepted_at ? ', accepted' : ''}${snapshot.undone_at ? ', undone' : ''}` : 'none'}`,
    ...(s.warnings ?? []).map((warning) => `  warning   ${warning}`),
  ];
  return lines.join('\n');
}

function parseEnv(pairs: string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--env wants KEY=VALUE, got ${pair}`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

/** The create request from the shared options of `create` and `run`. */
function createRequest(harness: string, options: Options): Record<string, unknown> {
  return {
    harness,
    project: (options.project as string | undefined) ?? process.cwd(),
    name: (options.name as string | undefined) ?? '',
    ...(options.pack ? { pack: options.pack } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.copy ? { copy: true } : {}),
    ...(options.snapshot === false ? { no_snapshot: true } : {}),
    ...(options.build === false ? { no_build: true } : {}),
    ...(options.cpu ? { cpu: Number(options.cpu) } : {}),
    ...(options.memory ? { memory: options.memory } : {}),
    ...(options.env ? { env: parseEnv(options.env as string[]) } : {}),
  };
}

function withCreateOptions(command: Command): Command {
  return command
    .option('--name <name>', 'sandbox name (default: <folder>-<random>)')
    .option('--project <dir>', 'project folder (default: the current folder)')
    .option('--pack <pack>', 'policy pack')
    .option('--profile <profile>', 'policy profile')
    .option('--copy', 'work on a copy instead of mounting the folder live')
    .option('--no-snapshot', 'take no undo point before the session')
    .option('--no-build', 'refuse instead of building a missing harness image')
    .option('--cpu <cores>', 'CPU limit in cores')
    .option('--memory <size>', 'memory limit, <n>m or <n>g')
    .option('--env <KEY=VALUE>', 'non-secret variable for the harness (repeatable)', collect);
}

/** Runs the sandbox's attach command in this terminal with the sandbox's own environment. */
async function attach(sandbox: SandboxAnswer, command: string[]): Promise<number> {
  const launch = sandbox.launch as { attach: string[] | null };
  if (!launch.attach) throw new Error(`sandbox ${sandbox.name} is not running`);
  const target = launch.attach[launch.attach.indexOf('--target') + 1]!;
  const env: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${target}/environ`).toString('utf8').split('\0')) {
    const at = entry.indexOf('=');
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  const split = launch.attach.lastIndexOf('--');
  const argv = command.length > 0 ? [...launch.attach.slice(0, split + 1), ...command] : launch.attach;
  const child = spawn(argv[0]!, argv.slice(1), { stdio: 'inherit', env });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(signal ? 128 : (code ?? 1)));
  });
}

export function registerSandbox(program: Command): void {
  const sandbox = program.command('sandbox').description('isolated sandboxes for agent harnesses (bubblewrap)');
  const client = async () => new (await import('../sandbox-client.js')).SandboxClient();
  const at = async (name: string, action = '') => (await import('../sandbox-client.js')).path(name, action);

  withCreateOptions(sandbox.command('create [harness]').description('create and start a sandbox (harness: shell or a connector)'))
    .option('--json', 'print the Sandbox answer')
    .action(async (harness: string | undefined, options: Options) => {
      const answer = await (await client()).call<SandboxAnswer>('POST', '/sandboxes', createRequest(harness ?? 'shell', options));
      print(answer, options.json, describe);
    });

  sandbox.command('ls').description('list sandboxes').option('--json', 'print the answer')
    .action(async (options: Options) => {
      const { sandboxes } = await (await client()).call<{ sandboxes: SandboxAnswer[] }>('GET', '/sandboxes');
      print(sandboxes, options.json, (list: SandboxAnswer[]) =>
        list.length === 0 ? 'no sandboxes' : list.map((s) => `${s.name.padEnd(20)} ${s.phase.padEnd(8)} ${String(s.harness ?? '').padEnd(10)} ${s.orphaned ? '(orphaned)' : (s.project ?? '')}`).join('\n'));
    });

  sandbox.command('show <name>').description('show one sandbox').option('--json', 'print the answer')
    .action(async (name: string, options: Options) => print(await (await client()).call('GET', await at(name)), options.json, describe));

  sandbox.command('start <name>').description('start a stopped sandbox')
    .option('--no-snapshot', 'keep the old undo point').option('--new-snapshot', 'accept the changes and take a fresh undo point')
    .option('--json', 'print the answer')
    .action(async (name: string, options: Options) => {
      const body = { ...(options.snapshot === false ? { no_snapshot: true } : {}), ...(options.newSnapshot ? { new_snapshot: true } : {}) };
      print(await (await client()).call('POST', await at(name, 'start'), body), options.json, describe);
    });

  sandbox.command('stop <name>').description('stop a sandbox (a run going is kept as interrupted)').option('--json', 'print the answer')
    .action(async (name: string, options: Options) => print(await (await client()).call('POST', await at(name, 'stop')), options.json, describe));

  sandbox.command('rm <name>').description('delete a sandbox, its run log and (unless kept) its snapshots')
    .option('--keep-snapshot', 'keep the undo snapshots').option('--json', 'print the answer')
    .action(async (name: string, options: Options) => {
      const answer = await (await client()).call('DELETE', await at(name), options.keepSnapshot ? { keep_snapshot: true } : {});
      print(answer, options.json, () => `deleted ${name}`);
    });

  sandbox.command('undo <name>').description('restore the project folder to the undo point')
    .option('--preview', 'list what would change, change nothing').option('--keep-refs', 'keep the snapshot refs')
    .option('--stop', 'stop the sandbox first').option('--restart', 'start it again afterwards').option('--json', 'print the answer')
    .action(async (name: string, options: Options) => {
      const body = { preview: Boolean(options.preview), keep_refs: Boolean(options.keepRefs), stop: Boolean(options.stop), restart: Boolean(options.restart) };
      const answer = await (await client()).call<{ summary: string; workspace: { changes: { path: string; change: string }[] } }>('POST', await at(name, 'undo'), body);
      print(answer, options.json, (a: typeof answer) => [a.summary, ...a.workspace.changes.map((c) => `  ${c.change.padEnd(9)} ${c.path}`)].join('\n'));
    });

  sandbox.command('review <name>').description('what the sessions changed since the undo point')
    .option('--diff', 'include the diff').option('--json', 'print the answer')
    .action(async (name: string, options: Options) => {
      const answer = await (await client()).call<{ summary: string; risk_line: string; diff?: string; report: Record<string, string[]> }>(
        'POST', await at(name, 'review'), { diff: Boolean(options.diff) });
      print(answer, options.json, (a: typeof answer) => [
        a.summary, ...(a.risk_line ? [`risk: ${a.risk_line}`] : []),
        ...Object.entries(a.report).flatMap(([kind, files]) => files.map((file) => `  ${kind.padEnd(9)} ${file}`)),
        ...(a.diff ? [a.diff] : []),
      ].join('\n'));
    });

  sandbox.command('accept <name>').description('accept the changes since the undo point')
    .option('--session <n>', 'refuse if the sandbox was started again since this session')
    .option('--snapshot-created-at <time>', 'refuse unless the undo point is this one').option('--json', 'print the answer')
    .action(async (name: string, options: Options) => {
      const body = { ...(options.session ? { session: Number(options.session) } : {}), ...(options.snapshotCreatedAt ? { snapshot_created_at: options.snapshotCreatedAt } : {}) };
      print(await (await client()).call('POST', await at(name, 'accept'), body), options.json, describe);
    });

  sandbox.command('logs <name>').description('the kept log of the last detached run').option('--lines <n>', 'only the last n lines')
    .option('--json', 'print the RunLog answer')
    .action(async (name: string, options: Options) => {
      const query = options.lines ? `?lines=${encodeURIComponent(String(options.lines))}` : '';
      const answer = await (await client()).call<{ log: string; state: string; exit: number | null }>('GET', `${await at(name, 'logs')}${query}`);
      if (options.json) print(answer, true, () => '');
      else process.stdout.write(answer.log);
    });

  sandbox.command('explain').description('the resolved policy of a sandbox or of run options')
    .option('--sandbox <name>', 'a sandbox').option('--harness <harness>', 'run options: harness').option('--pack <pack>', 'run options: pack')
    .option('--profile <profile>', 'run options: profile').option('--project <dir>', 'run options: project')
    .action(async (options: Options) => {
      const query = new URLSearchParams();
      for (const key of ['sandbox', 'harness', 'pack', 'profile', 'project']) if (typeof options[key] === 'string') query.set(key, options[key]);
      print(await (await client()).call('GET', `/policy/explain?${query.toString()}`), true, () => '');
    });

  withCreateOptions(sandbox.command('run [harness] [command...]').description('create a sandbox for the current folder and attach this terminal to it'))
    .option('--rm', 'delete the sandbox when the terminal detaches')
    .action(async (harness: string | undefined, command: string[], options: Options) => {
      const api = await client();
      const created = await api.call<SandboxAnswer>('POST', '/sandboxes', createRequest(harness ?? 'shell', options));
      for (const warning of created.warnings ?? []) process.stderr.write(`warden: ${warning}\n`);
      const code = await attach(created, command);
      if (options.rm) await api.call('DELETE', await at(created.name));
      else process.stderr.write(`warden: sandbox ${created.name} is still running: warden sandbox stop ${created.name}\n`);
      process.exitCode = code;
    });

  const image = sandbox.command('image').description('harness images in $WARDEN_HOME/images');
  const images = async () => {
    const { wardenPaths } = await import('../../config/home.js');
    const { ImageStore } = await import('../../sandbox/images/store.js');
    const { join } = await import('node:path');
    return new ImageStore(join(wardenPaths().home, 'images'));
  };
  image.command('build <harness>').description('build (or rebuild) a harness image')
    .action(async (harness: string) => {
      const built = await (await images()).build(harness);
      process.stdout.write(`${built.harness} ${built.image_id} ${built.path}\n`);
    });
  image.command('ls').description('list built images').option('--json', 'print the manifests')
    .action(async (options: Options) => {
      const list = (await images()).list();
      print(list, options.json, (l: typeof list) => (l.length === 0 ? 'no images' : l.map((i) => `${i.harness.padEnd(12)} ${i.image_id} ${i.built_at}`).join('\n')));
    });
  image.command('rm <harness>').description('remove a harness image (the next sandbox rebuilds it)')
    .action(async (harness: string) => {
      process.stdout.write((await images()).remove(harness) ? `removed ${harness}\n` : `no ${harness} image\n`);
    });

  sandbox.command('legacy-cleanup').description('remove the legacy standalone marker (openshell.mode: standalone) from config.yaml')
    .action(async () => {
      const { legacyCleanup } = await import('../../sandbox/legacy.js');
      process.stdout.write(`${legacyCleanup()}\n`);
    });
}
