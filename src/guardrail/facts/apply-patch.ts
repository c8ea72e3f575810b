// Paths touched by a Codex `apply_patch` envelope (`*** Begin Patch` … `*** End Patch`).
const PATCH_PATH = /^\*\*\* (?:Add File|Update File|Delete File|Move to): ([^\r\n]+)/gm;

export function patchPaths(patch: string): string[] {
  const paths: string[] = [];
  for (const match of patch.matchAll(PATCH_PATH)) paths.push(match[1]!.trim());
  return paths;
}
