// Recognising executables, bytecode and archives by their first bytes (SkillFile.head), and which extensions
// each kind normally carries, so a file whose name lies about its content can be told apart.

export type BinaryKind =
  | 'elf' | 'mach-o' | 'pe' | 'java-class' | 'python-bytecode' | 'wasm'
  | 'zip' | 'gzip' | '7z' | 'rar' | 'bzip2' | 'xz';

export interface BinaryKindInfo {
  label: string;
  /** Native code or bytecode a machine runs, as opposed to a container of other files. */
  executable: boolean;
  /** Extensions (lower case, no dot) this kind is normally saved under; '' for none. */
  extensions: readonly string[];
}

export const BINARY_KINDS: Readonly<Record<BinaryKind, BinaryKindInfo>> = {
  elf: { label: 'ELF executable or library', executable: true, extensions: ['', 'so', 'o', 'bin', 'elf', 'out', 'node', 'run', 'appimage'] },
  'mach-o': { label: 'Mach-O executable or library', executable: true, extensions: ['', 'dylib', 'so', 'bundle', 'node', 'o'] },
  pe: { label: 'Windows PE executable or DLL', executable: true, extensions: ['exe', 'dll', 'sys', 'node', 'pyd', 'efi', 'ocx', 'cpl', 'scr'] },
  'java-class': { label: 'Java class file', executable: true, extensions: ['class'] },
  'python-bytecode': { label: 'compiled Python bytecode', executable: true, extensions: ['pyc', 'pyo'] },
  wasm: { label: 'WebAssembly module', executable: true, extensions: ['wasm'] },
  zip: {
    label: 'ZIP archive',
    executable: false,
    extensions: ['zip', 'jar', 'war', 'ear', 'aar', 'apk', 'whl', 'egg', 'nupkg', 'vsix', 'xpi', 'ipa', 'epub', 'docx', 'xlsx', 'pptx', 'docm', 'xlsm', 'pptm', 'odt', 'ods', 'odp', 'skill'],
  },
  gzip: { label: 'gzip archive', executable: false, extensions: ['gz', 'tgz', 'svgz'] },
  '7z': { label: '7-Zip archive', executable: false, extensions: ['7z'] },
  rar: { label: 'RAR archive', executable: false, extensions: ['rar'] },
  bzip2: { label: 'bzip2 archive', executable: false, extensions: ['bz2', 'tbz', 'tbz2'] },
  xz: { label: 'xz archive', executable: false, extensions: ['xz', 'txz'] },
};

/** Office documents are ZIP containers, but a plain .docx/.xlsx/.pptx/.odt is a document, not hidden code. */
export const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub']);

function startsWith(head: Uint8Array, bytes: readonly number[], offset = 0): boolean {
  if (head.length < offset + bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (head[offset + i] !== bytes[i]) return false;
  return true;
}

function uint32BE(head: Uint8Array, offset: number): number {
  return ((head[offset]! << 24) >>> 0) + (head[offset + 1]! << 16) + (head[offset + 2]! << 8) + head[offset + 3]!;
}

/** The binary kind of a file from its first bytes; only called for files that are not text. */
export function detectBinaryKind(head: Uint8Array): BinaryKind | undefined {
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return 'elf';
  if (startsWith(head, [0xfe, 0xed, 0xfa, 0xce]) || startsWith(head, [0xfe, 0xed, 0xfa, 0xcf])
    || startsWith(head, [0xce, 0xfa, 0xed, 0xfe]) || startsWith(head, [0xcf, 0xfa, 0xed, 0xfe])) return 'mach-o';
  if (startsWith(head, [0xca, 0xfe, 0xba, 0xbe]) && head.length >= 8) {
    // Shared by Java classes and Mach-O universal binaries: a class file's major version is at least 45,
    // a universal binary's architecture count is small.
    return uint32BE(head, 4) >= 45 ? 'java-class' : 'mach-o';
  }
  if (startsWith(head, [0x4d, 0x5a])) return 'pe';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06]) || startsWith(head, [0x50, 0x4b, 0x07, 0x08])) return 'zip';
  if (startsWith(head, [0x1f, 0x8b])) return 'gzip';
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  if (startsWith(head, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07])) return 'rar';
  if (startsWith(head, [0x42, 0x5a, 0x68])) return 'bzip2';
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'xz';
  if (startsWith(head, [0x00, 0x61, 0x73, 0x6d])) return 'wasm';
  // Python bytecode: a 2-byte little-endian magic number per release (3000–3999 for CPython 3.x) then "\r\n".
  if (head.length >= 4 && head[2] === 0x0d && head[3] === 0x0a) {
    const magic = head[0]! + (head[1]! << 8);
    if (magic >= 3000 && magic < 4000) return 'python-bytecode';
  }
  return undefined;
}
