// What an undo point leaves out, and which part of the project's own `.git` folder it keeps. One list, read by
// the snapshot walk, the nested-repository search and docs/sandbox.md ("Undo points"), so the three agree.

/**
 * Folder names skipped at any depth: dependency installs and build caches that a package manager or compiler
 * recreates, and that would make a snapshot slow and large. Their content is neither snapshotted nor touched
 * by an undo.
 */
export const EXCLUDED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.gradle',
  '.next',
  '.nuxt',
  '.turbo',
  '.parcel-cache',
  '.cache',
]);

/**
 * The entries of the project's top-level `.git` folder an undo point keeps: what makes git run code or changes
 * how git behaves (hooks, config, info/attributes, info/exclude). Objects, refs and the index are git's own
 * append-mostly database and are left alone: an undo never rewrites the project's history.
 */
export const GIT_METADATA_ENTRIES: readonly string[] = ['hooks', 'config', 'info'];

/** The name git reserves for its own folder (or gitdir file); never stored as a project file. */
export const GIT_DIR_NAME = '.git';
