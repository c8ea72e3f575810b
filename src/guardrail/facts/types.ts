// What a tool call does, as parsed facts. Rule expressions (CEL) are evaluated over these; see
// policies/rules.md for the variables they expose.

export interface CommandFact {
  /** Basename of argv0 with quotes removed, e.g. `rm` for `/bin/r''m`. */
  name: string;
  /** argv[1..] with quotes and escapes removed. */
  args: string[];
  /** argv0 as written (quotes removed, path kept) followed by args, joined by single spaces. */
  text: string;
}

/** A destructive operation on a path, with where the path lands relative to the project (shell/scope.ts). */
export interface PathOp {
  /** `delete`, `shred`, `truncate`, `chmod`, `chmod-open` (world-writable or 000 mode), `chown`, `move`
   *  (the source leaves its place), `overwrite` (a move's destination). */
  op: string;
  /** The path as written (quotes removed). */
  path: string;
  /** `root`, `system`, `home`, `ancestor`, `project`, `vcs`, `inside`, `temp`, `outside`, `elsewhere` (absolute,
   *  project unknown) or `unknown` (a variable, or targets read from input). */
  scope: string;
  recursive: boolean;
  /** A find with name/path/time tests: only matching entries are touched. */
  filtered: boolean;
}

/** Text a command runs as code or queries (`psql -c`, `python -c`, a heredoc fed to `mysql` or `python3 -`). */
export interface InputFact {
  name: string;
  text: string;
}

export interface ActionFacts {
  /** Lower-case tool name (`bash`, `write`, `edit`, `read`, `webfetch`, `shell`, `mcp__github__create_issue`, …). */
  tool: string;
  /** False when a shell command was present but could not be parsed: the engine then falls back to patterns. */
  parsed: boolean;
  /** Every simple command that would execute, including inside pipelines, lists, subshells, `$(…)`, backticks,
   *  `bash -c`/`sh -c` strings, wrapper commands (`sudo`, `env`, `xargs`, `timeout`, `nohup`, …: both the wrapper
   *  and the command it runs) and decoded `echo <base64> | base64 -d | sh` payloads. `echo`/`printf` arguments
   *  are not commands. */
  commands: CommandFact[];
  /** Command names per pipeline of two or more commands, e.g. `[["curl", "bash"]]`. */
  pipelines: string[][];
  paths_read: string[];
  paths_written: string[];
  /** Lower-case hostnames or IP literals contacted. */
  hosts: string[];
  urls: string[];
  // The four lists below are always set by extractFacts; they are optional so that facts built by hand
  // (tests, chain fixtures) need not spell them out.
  /** The project root the call was made in (the hook payload's `cwd`), or '' when unknown. */
  cwd?: string;
  /** Deletes, shreds, truncations, recursive permission changes and moves, with the scope of each target. */
  path_ops?: PathOp[];
  /** Hosts whose downloaded content the call executes (`curl … | sh`, `bash <(curl …)`, a downloaded file run
   *  afterwards, an interpreter evaluating a fetched body); `unknown` when the source is not known. */
  remote_code?: string[];
  /** Code and queries that interpreters and database clients run, from their arguments or standard input. */
  inputs?: InputFact[];
  /** Normalised text of everything above (one command per line, then paths, hosts, urls), which the engine
   *  scans with the rules' patterns to decide which expressions are worth evaluating. */
  normalized: string;
}
