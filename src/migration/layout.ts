// Printing the migrated Document the way the operator wrote the file. The `yaml` printer keeps comments, key
// order and blank lines, but not spacing inside a line: an aligned `high:     {…}`, or two spaces before a
// `# comment`, come out as one. So each printed line that differs from a source line only in such inner spacing
// (same indentation, same text otherwise, met in the same order) is replaced by the source line, and the
// result is kept only when it parses to exactly the same data as the printer's text.
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';

const shape = (line: string) => {
  const indent = /^ */.exec(line)![0];
  return indent + line.slice(indent.length).replace(/\s+/g, ' ').trimEnd();
};

export function restoreLayout(source: string, printed: string): string {
  const sourceLines = source.split('\n');
  const shapes = sourceLines.map(shape);
  let next = 0;
  const lines = printed.split('\n').map((line) => {
    if (sourceLines.includes(line)) return line;
    const wanted = shape(line);
    const at = shapes.indexOf(wanted, next);
    if (at < 0) return line;
    next = at + 1;
    return sourceLines[at]!;
  });
  const restored = lines.join('\n');
  return restored !== printed && isDeepStrictEqual(parse(restored), parse(printed)) ? restored : printed;
}
