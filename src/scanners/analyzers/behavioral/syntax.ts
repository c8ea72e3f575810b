// Tree-sitter for the behavioral analyzer: loading the grammars once per process, and turning a parse into a
// small plain-object tree the taint evaluators walk.
//
// Why a copy of the tree: every web-tree-sitter Node getter is a call into WebAssembly, and the evaluators
// look at each node several times (type, fields, text) over two analysis rounds. One TreeCursor pass that
// keeps only named nodes, their field names and offsets costs about as much as the parse itself, and the
// WebAssembly tree is deleted straight after, so nothing native outlives the call.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';

export type Lang = 'python' | 'javascript' | 'typescript' | 'tsx' | 'bash';
const LANGS: readonly Lang[] = ['python', 'javascript', 'typescript', 'tsx', 'bash'];

/** A named syntax node. Offsets are UTF-16 indexes into the parsed string (what web-tree-sitter reports). */
export interface SyntaxNode {
  readonly type: string;
  /** The field this node fills in its parent (`function`, `arguments`, `left`…), if any. */
  readonly field: string | null;
  readonly start: number;
  readonly end: number;
  readonly children: SyntaxNode[];
}

/** A parsed file (or Markdown code-block set, or code string) handed to an evaluator. */
export interface CodeModule {
  /** Skill-relative path findings are reported against. */
  file: string;
  /** The parsed text: offsets in `root` index into it. */
  source: string;
  root: SyntaxNode;
  /** Importable module files (`.py`, `.js`…), as opposed to code blocks of Markdown files. */
  importable: boolean;
}

export const SYNTAX_LIMITS = {
  /** Named nodes copied per file; the rest of a huge file is not analysed. */
  maxNodes: 60_000,
  /** Deeper nesting is cut off, which keeps every recursive walk well inside the stack. */
  maxDepth: 150,
  /** A parse taking longer than this is abandoned (the file yields no findings). */
  parseMillis: 250,
} as const;

export type Parsers = ReadonlyMap<Lang, Parser>;

let grammars: Promise<Parsers> | undefined;

/** The parsers, one per language, built on first use and shared by every later scan in this process. */
export function loadParsers(): Promise<Parsers> {
  grammars ??= buildParsers().catch((err: unknown) => {
    grammars = undefined; // a failed load (missing wasm) is retried by the next scan rather than cached
    throw err;
  });
  return grammars;
}

async function buildParsers(): Promise<Parsers> {
  await Parser.init();
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
  const parsers = new Map<Lang, Parser>();
  for (const lang of LANGS) {
    const language = await Language.load(join(dir, `tree-sitter-${lang}.wasm`));
    const parser = new Parser();
    parser.setLanguage(language);
    parsers.set(lang, parser);
  }
  return parsers;
}

/** Parses `code` and copies its named nodes; undefined when the parse fails or times out. Never throws. */
export function parseToSyntax(parsers: Parsers, lang: Lang, code: string): SyntaxNode | undefined {
  const parser = parsers.get(lang);
  if (!parser) return undefined;
  let tree: Tree | null = null;
  try {
    const deadline = performance.now() + SYNTAX_LIMITS.parseMillis;
    // Returning true from the progress callback cancels the parse (typed as void in 0.25's declarations).
    tree = parser.parse(code, null, { progressCallback: () => performance.now() > deadline });
    if (!tree) {
      parser.reset();
      return undefined;
    }
    return copyTree(tree);
  } catch {
    parser.reset();
    return undefined;
  } finally {
    tree?.delete();
  }
}

function copyTree(tree: Tree): SyntaxNode {
  const language = tree.language;
  const types = language.types;
  const fields = language.fields;
  const cursor = tree.walk();
  let budget: number = SYNTAX_LIMITS.maxNodes;
  const visit = (field: string | null, depth: number): SyntaxNode => {
    const node: SyntaxNode = { type: types[cursor.nodeTypeId] ?? 'ERROR', field, start: cursor.startIndex, end: cursor.endIndex, children: [] };
    budget--;
    if (depth < SYNTAX_LIMITS.maxDepth && budget > 0 && cursor.gotoFirstChild()) {
      do {
        if (cursor.nodeIsNamed && budget > 0) node.children.push(visit(fields[cursor.currentFieldId] ?? null, depth + 1));
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
    return node;
  };
  try {
    return visit(null, 0);
  } finally {
    cursor.delete();
  }
}

/** The first child filling `field`. */
export function field(node: SyntaxNode, name: string): SyntaxNode | undefined {
  for (const child of node.children) if (child.field === name) return child;
  return undefined;
}

/** Every child filling `field`. */
export function fields(node: SyntaxNode, name: string): SyntaxNode[] {
  return node.children.filter((child) => child.field === name);
}
