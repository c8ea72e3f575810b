// Module resolution for cross-file calls (a Python import or a JS import/require naming another file of the
// skill), and loop unrolling shared by the Python and JavaScript evaluators.
import { dirname, join, normalize } from 'node:path';
import { plain, type Value } from './values.js';

/** Resolves `import x` / `from x import y` (dotted name, relative level) to a skill-relative module path. */
export type PyModuleResolver = (importer: string, dotted: string, level: number) => string | undefined;
/** Resolves an import/require specifier to a skill-relative module path. */
export type JsModuleResolver = (importer: string, spec: string) => string | undefined;

const MAX_UNROLLED = 8;

/** The values a loop variable takes: each element of a short literal list, else the iterable's flows. */
export function loopElements(iterable: Value): Value[] {
  const items = iterable.items;
  if (items && items.length > 0 && items.length <= MAX_UNROLLED && items.some((i) => i.text !== undefined)) return [...items];
  return [plain(iterable)];
}

/** The module resolver for Python imports over the skill's module files. */
export function pythonResolver(moduleFiles: ReadonlySet<string>): PyModuleResolver {
  // Qualified calls (`requests.post`) are checked against the skill's modules too, so answers are cached.
  const cache = new Map<string, string | undefined>();
  return (importer, dotted, level) => {
    const key = `${importer}\u0000${dotted}\u0000${level}`;
    if (!cache.has(key)) cache.set(key, resolvePython(moduleFiles, importer, dotted, level));
    return cache.get(key);
  };
}

function resolvePython(moduleFiles: ReadonlySet<string>, importer: string, dotted: string, level: number): string | undefined {
  if (!dotted && level === 0) return undefined;
  const rel = dotted.replace(/\./g, '/');
  const bases: string[] = [];
  let dir = dirname(importer);
  if (level > 0) {
    for (let i = 1; i < level; i++) dir = dirname(dir);
    bases.push(dir === '.' ? '' : `${dir}/`);
  } else bases.push(dir === '.' ? '' : `${dir}/`, ''); // the importer's folder, then the skill root
  for (const base of bases) {
    for (const candidate of [`${base}${rel}.py`, `${base}${rel}/__init__.py`]) if (moduleFiles.has(candidate)) return candidate;
  }
  if (level === 0 && rel) {
    for (const file of moduleFiles) if (file.endsWith(`/${rel}.py`)) return file;
  }
  return undefined;
}

/** The module resolver for JS/TS imports over the skill's module files (`./x.js` may name `x.ts`). */
export function javascriptResolver(moduleFiles: ReadonlySet<string>): JsModuleResolver {
  return (importer, spec) => {
    if (!spec.startsWith('.') && !spec.startsWith('/')) return undefined;
    const base = normalize(join(dirname(importer), spec)).replace(/\\/g, '/').replace(/^\.\//, '');
    const stem = base.replace(/\.(?:[cm]?js|[cm]?ts|tsx|jsx)$/, '');
    const candidates = [base, `${stem}.js`, `${stem}.ts`, `${stem}.mjs`, `${stem}.cjs`, `${stem}.mts`, `${stem}.tsx`, `${base}/index.js`, `${base}/index.ts`];
    return candidates.find((c) => moduleFiles.has(c));
  };
}
