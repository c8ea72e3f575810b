// Checks on the files themselves rather than their text: code hidden in dotfiles, executables and archives (by
// magic bytes), names that lie about content, compiled code shipped without its source, and what the loader
// could not read. Anything a reviewer cannot read is a place to hide behaviour.
import { SCANNER_LIMITS } from '../../limits.js';
import type { AnalyzerFinding, SkillFile, SkillPackage } from '../../types.js';
import { baseName, CODE_TYPES, extensionOf, fileTypeOf } from './file-types.js';
import { BINARY_KINDS, detectBinaryKind, DOCUMENT_EXTENSIONS, type BinaryKind } from './magic.js';

/** Dotfiles that configure tools rather than run anything of the skill's own. */
const BENIGN_DOTFILES: ReadonlySet<string> = new Set([
  '.gitignore', '.gitattributes', '.gitkeep', '.keep', '.editorconfig', '.npmignore', '.dockerignore', '.prettierignore',
  '.eslintignore', '.nvmrc', '.node-version', '.python-version', '.tool-versions', '.prettierrc', '.prettierrc.json',
  '.prettierrc.yaml', '.prettierrc.yml', '.eslintrc', '.eslintrc.json', '.eslintrc.js', '.eslintrc.cjs', '.prettierrc.js',
  '.prettierrc.cjs', '.markdownlint.json', '.DS_Store',
]);
/** Dotfiles without a code extension whose content is shell code that a shell runs on its own. */
const SHELL_DOTFILES: ReadonlySet<string> = new Set(['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zprofile', '.zshenv', '.envrc']);

/** Extensions a reviewer expects to be able to read or view: an executable named like this is disguised. */
const READABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  'txt', 'md', 'markdown', 'rst', 'csv', 'tsv', 'json', 'yaml', 'yml', 'toml', 'xml', 'html', 'htm', 'css', 'svg',
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'ico', 'pdf', 'log', 'ini', 'cfg', 'conf', 'lock', 'py', 'js', 'ts', 'sh',
]);

/** Source extensions that can account for compiled native code or WebAssembly. */
const NATIVE_SOURCE_EXTENSIONS: ReadonlySet<string> = new Set(['c', 'cc', 'cpp', 'cxx', 'h', 'hpp', 'rs', 'go', 'zig', 'swift', 'm', 'mm', 'cs']);
/** WebAssembly is also compiled from AssemblyScript or written as text. */
const WASM_SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([...NATIVE_SOURCE_EXTENSIONS, 'wat', 'ts']);
const BYTECODE_SOURCE_EXTENSIONS: Partial<Record<BinaryKind, ReadonlySet<string>>> = {
  'python-bytecode': new Set(['py']),
  'java-class': new Set(['java', 'kt', 'scala']),
  wasm: WASM_SOURCE_EXTENSIONS,
};
/** Build files whose presence means native code is built from source in the skill. */
const NATIVE_BUILD_FILES: ReadonlySet<string> = new Set(['Cargo.toml', 'go.mod', 'CMakeLists.txt', 'binding.gyp', 'Makefile', 'meson.build', 'build.zig']);

const REMEDIATION_INSPECTABLE = 'Ship readable source instead, or build the artifact at install time from source that is part of the skill.';

function hiddenSegment(path: string): string | undefined {
  return path.split('/').find((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..');
}

/** The name stems under which a compiled file's source would be found. */
function sourceStems(file: SkillFile): string[] {
  const name = baseName(file.path);
  const firstDot = name.indexOf('.');
  const stem = firstDot <= 0 ? name : name.slice(0, firstDot);
  const stems = [stem];
  if (stem.startsWith('lib') && stem.length > 3) stems.push(stem.slice(3));
  const dollar = stem.indexOf('$');
  if (dollar > 0) stems.push(stem.slice(0, dollar));
  return stems;
}

class SourceIndex {
  private readonly stems = new Map<string, Set<string>>();
  private readonly names = new Set<string>();

  constructor(files: readonly SkillFile[]) {
    for (const f of files) {
      const name = baseName(f.path);
      this.names.add(name);
      const dot = name.lastIndexOf('.');
      if (dot <= 0) continue;
      const stem = name.slice(0, dot);
      let extensions = this.stems.get(stem);
      if (!extensions) this.stems.set(stem, (extensions = new Set()));
      extensions.add(name.slice(dot + 1).toLowerCase());
    }
  }

  hasSource(file: SkillFile, kind: BinaryKind): boolean {
    const wanted = BYTECODE_SOURCE_EXTENSIONS[kind] ?? NATIVE_SOURCE_EXTENSIONS;
    for (const stem of sourceStems(file)) {
      const extensions = this.stems.get(stem);
      if (extensions && [...extensions].some((e) => wanted.has(e))) return true;
    }
    if (kind === 'python-bytecode' || kind === 'java-class') return false;
    return [...NATIVE_BUILD_FILES].some((n) => this.names.has(n));
  }
}

function hiddenCodeFinding(file: SkillFile, segment: string, kind: BinaryKind | undefined): AnalyzerFinding | undefined {
  const name = baseName(file.path);
  if (segment === name && BENIGN_DOTFILES.has(name)) return undefined;
  const executable = kind !== undefined && BINARY_KINDS[kind].executable;
  const isCode = executable || SHELL_DOTFILES.has(name) || (file.text !== undefined && CODE_TYPES.has(fileTypeOf(file.path, file.text)));
  if (!isCode) return undefined;
  return {
    rule_id: 'SS-FILE-HIDDEN-CODE',
    category: 'obfuscation',
    severity: executable ? 'HIGH' : 'MEDIUM',
    title: 'Code in a hidden file or folder',
    description: `${file.path} is ${executable ? 'an executable' : 'code'} under a dot-name (${segment}), which file browsers and many reviews skip.`,
    file_path: file.path,
    remediation: 'Move scripts to a visible folder such as scripts/ so that reviewers see them.',
    metadata: { hidden_segment: segment },
  };
}

function binaryFindings(file: SkillFile, kind: BinaryKind, sources: SourceIndex): AnalyzerFinding[] {
  const info = BINARY_KINDS[kind];
  const extension = extensionOf(file.path);
  const findings: AnalyzerFinding[] = [];
  const metadata = { kind, extension, size: file.size, sha256: file.sha256 };
  if (!info.extensions.includes(extension)) {
    const disguised = info.executable && READABLE_EXTENSIONS.has(extension);
    findings.push({
      rule_id: 'SS-FILE-EXTENSION-MISMATCH',
      category: 'obfuscation',
      severity: disguised ? 'CRITICAL' : 'HIGH',
      title: 'File content does not match its extension',
      description: `${file.path} is named ${extension ? `.${extension}` : 'without an extension'} but its first bytes are those of a ${info.label}.`,
      file_path: file.path,
      remediation: 'Remove the file, or name it for what it is and justify why the skill needs it.',
      metadata,
    });
  }
  if (info.executable) {
    const withSource = sources.hasSource(file, kind);
    findings.push({
      rule_id: withSource ? 'SS-FILE-COMPILED' : 'SS-FILE-COMPILED-NO-SOURCE',
      category: 'obfuscation',
      severity: withSource ? 'MEDIUM' : 'HIGH',
      title: withSource ? 'Compiled code shipped in the skill' : 'Compiled code shipped without its source',
      description: withSource
        ? `${file.path} is a ${info.label}; its source appears to be in the skill, but the binary itself cannot be reviewed or shown to match it.`
        : `${file.path} is a ${info.label} and no matching source is in the skill, so what it does cannot be reviewed.`,
      file_path: file.path,
      remediation: REMEDIATION_INSPECTABLE,
      metadata,
    });
  } else if (!(kind === 'zip' && DOCUMENT_EXTENSIONS.has(extension))) {
    findings.push({
      rule_id: 'SS-FILE-ARCHIVE',
      category: 'obfuscation',
      severity: 'MEDIUM',
      title: 'Archive shipped in the skill',
      description: `${file.path} is a ${info.label}; its contents are not scanned and may be extracted and run later.`,
      file_path: file.path,
      remediation: 'Ship the archive\'s files unpacked so they can be scanned, or remove the archive.',
      metadata,
    });
  }
  return findings;
}

function uninspectedFindings(skill: SkillPackage): AnalyzerFinding[] {
  const findings: AnalyzerFinding[] = [];
  for (const file of skill.files) {
    if (file.text !== undefined || file.size <= SCANNER_LIMITS.maxTextBytes) continue;
    if (!CODE_TYPES.has(fileTypeOf(file.path, undefined)) && extensionOf(file.path) !== 'md') continue;
    findings.push({
      rule_id: 'SS-FILE-TOO-LARGE',
      category: 'obfuscation',
      severity: 'MEDIUM',
      title: 'Script or instructions too large to inspect',
      description: `${file.path} is ${file.size} bytes, over the ${SCANNER_LIMITS.maxTextBytes}-byte limit for text inspection, so its content was not scanned.`,
      file_path: file.path,
      remediation: 'Keep scripts and instructions small; split or remove oversized files.',
      metadata: { size: file.size },
    });
  }
  if (skill.skipped.length > 0) {
    findings.push({
      rule_id: 'SS-FILE-NOT-INSPECTED',
      category: 'policy_violation',
      severity: 'LOW',
      title: 'Entries not inspected',
      description: `${skill.skipped.length} entr${skill.skipped.length === 1 ? 'y was' : 'ies were'} not read (symlinks are never followed; special files and entries past the size limits are skipped).`,
      file_path: skill.skipped[0]!.path,
      remediation: 'Replace symlinks with the files themselves and keep the skill within the scanner limits.',
      metadata: { skipped: skill.skipped.slice(0, 50) },
    });
  }
  return findings;
}

export function fileFindings(skill: SkillPackage): AnalyzerFinding[] {
  const sources = new SourceIndex(skill.files);
  const findings: AnalyzerFinding[] = [];
  for (const file of skill.files) {
    const kind = file.text === undefined ? detectBinaryKind(file.head) : undefined;
    const segment = hiddenSegment(file.path);
    if (segment !== undefined) {
      const hidden = hiddenCodeFinding(file, segment, kind);
      if (hidden) findings.push(hidden);
    }
    if (kind !== undefined) findings.push(...binaryFindings(file, kind, sources));
  }
  findings.push(...uninspectedFindings(skill));
  return findings;
}
