// Small edits of the config.yaml Document shared by the rules: read a value as plain data, write one (a short
// mapping in flow style, the way an operator writes a triple), and delete one together with the mappings it
// leaves empty. Everything else in the document (comments, key order, blank lines) is left as parsed.
import { isMap, isScalar, type Document, type Node } from 'yaml';

export type Path = readonly (string | number)[];

/** The value at `path` as plain data, or undefined. */
export function read(doc: Document, path: Path): unknown {
  const node = doc.getIn(path, true) as Node | undefined;
  if (node === undefined || node === null) return undefined;
  return isScalar(node) ? node.value : (node as Node).toJSON();
}

/** Set `path` to `value`, creating the mappings on the way; short mappings and lists are written in flow style. */
export function write(doc: Document, path: Path, value: unknown, flow = isShort(value)): void {
  const node = doc.createNode(value, { flow });
  doc.setIn(path, node);
}

/** Delete `path`, then every mapping above it that the deletion left empty. */
export function remove(doc: Document, path: Path): void {
  doc.deleteIn(path);
  for (let depth = path.length - 1; depth > 0; depth--) {
    const parent = doc.getIn(path.slice(0, depth), true);
    if (!isMap(parent) || parent.items.length > 0) break;
    doc.deleteIn(path.slice(0, depth));
  }
}

/** A list or mapping of scalars only, short enough for one line (Object.values takes a list's items too). */
function isShort(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).every((v) => v === null || typeof v !== 'object') && JSON.stringify(value).length <= 80;
}
