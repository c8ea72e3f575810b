// A Claude Code plugin as laid out on disk (https://docs.claude.com/en/docs/claude-code/plugins-reference):
// `.claude-plugin/plugin.json` (name, version, description, and optional paths or inline definitions of
// commands, agents, skills, hooks and MCP servers) beside the default folders `commands/`, `agents/`,
// `skills/<name>/SKILL.md`, `hooks/hooks.json` and `.mcp.json`. Every path is resolved inside the plugin
// (links included); one that leads outside is reported, never read.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { confinePath, PathRejected, rootForms } from '../paths.js';
import { definitionsIn, parseJsonWithComments, readDefinitions, McpConfigError, type McpServerDefinition } from '../mcp/definitions.js';
import type { AnalyzerFinding } from '../types.js';
import { isObject } from '../../util/json.js';

const MANIFEST_PATH = '.claude-plugin/plugin.json';

export interface PluginHook {
  event: string;
  matcher?: string;
  type: string;
  /** A `command` hook's shell command. */
  command?: string;
  /** A `prompt` hook's prompt (evaluated by a model). */
  prompt?: string;
  /** Where it is defined, relative to the plugin root. */
  file: string;
}

export interface PluginLayout {
  manifest?: { name?: string; version?: string; description?: string };
  commands: string[];
  agents: string[];
  /** Skill folders (holding SKILL.md), relative to the plugin root. */
  skills: string[];
  hooks: PluginHook[];
  mcpServers: McpServerDefinition[];
  /** What is wrong with the layout itself (manifest missing or malformed, paths leading outside). */
  findings: AnalyzerFinding[];
}

const paths = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Hook entries of a hooks.json document (`{hooks: {Event: [{matcher, hooks: [{type, command}]}]}}`, or the inner map inline). */
function hooksIn(document: unknown, file: string): PluginHook[] {
  const events = isObject(document) && isObject(document.hooks) ? document.hooks : document;
  if (!isObject(events)) return [];
  return Object.entries(events).flatMap(([event, groups]) =>
    (Array.isArray(groups) ? groups : []).flatMap((group: unknown) => {
      if (!isObject(group)) return [];
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
      return (Array.isArray(group.hooks) ? group.hooks : []).flatMap((hook: unknown): PluginHook[] => {
        if (!isObject(hook)) return [];
        const type = typeof hook.type === 'string' ? hook.type : 'command';
        return [{
          event, type, file, ...(matcher ? { matcher } : {}),
          ...(typeof hook.command === 'string' ? { command: hook.command } : {}),
          ...(typeof hook.prompt === 'string' ? { prompt: hook.prompt } : {}),
        }];
      });
    }),
  );
}

export function readPluginLayout(root: string): PluginLayout {
  const roots = rootForms(root);
  const rel = (path: string) => relative(root, path).split(sep).join('/');
  const layout: PluginLayout = { commands: [], agents: [], skills: [], hooks: [], mcpServers: [], findings: [] };
  const problem = (finding: Omit<AnalyzerFinding, 'category'> & { category?: AnalyzerFinding['category'] }) =>
    layout.findings.push({ category: 'policy_violation', ...finding });

  /** A path the plugin names, resolved inside it; undefined (and reported) when it leads outside. */
  const inside = (path: string, from: string): string | undefined => {
    try {
      return confinePath(join(root, path), roots);
    } catch (err) {
      if (!(err instanceof PathRejected)) throw err;
      if (err.statusCode === 404) return undefined;
      problem({
        rule_id: 'PLUGIN-PATH-ESCAPE', category: 'transitive_trust_abuse', severity: 'HIGH', title: `Plugin path ${path} leads outside the plugin`,
        description: `${from} names ${path}, which resolves outside the plugin folder: installing the plugin would pull in files it does not contain.`,
        file_path: from, remediation: 'Keep every file the plugin uses inside its folder.',
      });
      return undefined;
    }
  };
  const readText = (path: string) => readFileSync(path, 'utf8');

  let manifest: Record<string, unknown> = {};
  const manifestFile = inside(MANIFEST_PATH, MANIFEST_PATH);
  if (!manifestFile) {
    problem({
      rule_id: 'PLUGIN-MANIFEST-MISSING', severity: 'LOW', title: 'No plugin manifest',
      description: `${MANIFEST_PATH} is missing: the folder is scanned file by file, with the default component folders.`,
      remediation: `Add ${MANIFEST_PATH} with at least a name.`,
    });
  } else {
    const { value, error } = parseJsonWithComments(readText(manifestFile));
    if (error || !isObject(value)) {
      problem({
        rule_id: 'PLUGIN-MANIFEST-INVALID', severity: 'MEDIUM', title: 'Plugin manifest is not valid JSON',
        description: `${MANIFEST_PATH}: ${error ?? 'not a JSON object'}. The agent would refuse the plugin; what it holds cannot be checked.`,
        file_path: MANIFEST_PATH, remediation: 'Fix the JSON of the manifest.',
      });
    } else {
      manifest = value;
      const str = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : undefined);
      layout.manifest = { name: str('name'), version: str('version'), description: str('description') };
      if (!layout.manifest.name) {
        problem({ rule_id: 'PLUGIN-MANIFEST-NAME-MISSING', severity: 'LOW', title: 'Plugin manifest has no name', description: 'Claude Code requires `name` in plugin.json.', file_path: MANIFEST_PATH });
      }
    }
  }

  const filesUnder = (folder: string, ext: string): string[] => {
    const dir = inside(folder, MANIFEST_PATH);
    if (!dir || !statSync(dir).isDirectory()) return dir && dir.endsWith(ext) ? [rel(dir)] : [];
    return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith(ext)).map((e) => rel(join(e.parentPath, e.name)));
  };
  layout.commands = [...new Set(['commands', ...paths(manifest.commands)].flatMap((p) => filesUnder(p, '.md')))];
  layout.agents = [...new Set(['agents', ...paths(manifest.agents)].flatMap((p) => filesUnder(p, '.md')))];

  for (const folder of ['skills', ...paths(manifest.skills)]) {
    const dir = inside(folder, MANIFEST_PATH);
    if (!dir || !statSync(dir).isDirectory()) continue;
    if (existsSync(join(dir, 'SKILL.md'))) layout.skills.push(rel(dir));
    else for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory() && existsSync(join(dir, entry.name, 'SKILL.md'))) layout.skills.push(rel(join(dir, entry.name)));
  }
  layout.skills = [...new Set(layout.skills)].sort();

  const hookFiles = isObject(manifest.hooks) ? [] : ['hooks/hooks.json', ...paths(manifest.hooks)];
  if (isObject(manifest.hooks)) layout.hooks.push(...hooksIn(manifest.hooks, MANIFEST_PATH));
  for (const file of [...new Set(hookFiles)]) {
    const path = inside(file, MANIFEST_PATH);
    if (!path) continue;
    const { value, error } = parseJsonWithComments(readText(path));
    if (error) problem({ rule_id: 'PLUGIN-HOOKS-INVALID', severity: 'MEDIUM', title: 'Hook configuration is not valid JSON', description: `${rel(path)}: ${error}.`, file_path: rel(path) });
    else layout.hooks.push(...hooksIn(value, rel(path)));
  }

  if (isObject(manifest.mcpServers)) layout.mcpServers.push(...definitionsIn({ mcpServers: manifest.mcpServers }, manifestFile, 'claude-code'));
  const mcpFiles = isObject(manifest.mcpServers) ? [] : ['.mcp.json', ...paths(manifest.mcpServers)];
  for (const file of [...new Set(mcpFiles)]) {
    const path = inside(file, MANIFEST_PATH);
    if (!path) continue;
    try {
      layout.mcpServers.push(...readDefinitions(path).map((d) => ({ ...d, agent: 'claude-code' as const })));
    } catch (err) {
      if (!(err instanceof McpConfigError)) throw err;
      problem({ rule_id: 'PLUGIN-MCP-INVALID', severity: 'MEDIUM', title: 'MCP server configuration is not valid', description: err.message, file_path: rel(path) });
    }
  }
  return layout;
}
