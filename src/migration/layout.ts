// Printing the migrated Document the way the operator wrote the file. The `yaml` printer keeps comments, key
// order and blank lines, but not spacing inside a line: an aligned `high:     {…}`, or two spaces before a
// `# comment`, come out as one. So each printed line that differs from a source line only in such inner spacing
// (same indentation, same text otherwise, met in the same order) is replaced by the source line. Spacing inside
// a quoted string is data, so the caller keeps the result only when it loads to exactly what the Document holds
// (migrate() checks that with the version 9 loader it runs anyway).

const shape = (line: string) => {
  const indent = /^ */.exec(line)![0];
  return indent + line.slice(indent.length).replace(/\s+/g, ' ').trimEnd();
};

export function restoreLayout(source: string, printed: string): string {
  const sourceLines = source.split('\n');
  const verbatim = new Set(sourceLines);
  // Source lines by shape, in file order, so each lookup only moves forward (linear in the file's size).
  const byShape = new Map<string, { at: number[]; cursor: number }>();
  sourceLines.forEach((line, i) => {
    const key = shape(line);
    const entry = byShape.get(key) ?? { at: [], cursor: 0 };
    entry.at.push(i);
    byShape.set(key, entry);
  });
  let next = 0;
  const lines = printed.split('\n').map((line) => {
    if (verbatim.has(line)) return line;
    const candidates = byShape.get(shape(line));
    if (!candidates) return line;
    while (candidates.cursor < candidates.at.length && candidates.at[candidates.cursor]! < next) candidates.cursor++;
    const at = candidates.at[candidates.cursor];
    if (at === undefined) return line;
    candidates.cursor++;
    next = at + 1;
    return sourceLines[at]!;
  });
  return lines.join('\n');
}
