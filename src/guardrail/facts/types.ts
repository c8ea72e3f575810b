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
  /** Normalised text of everything above (one command per line, then paths, hosts, urls), which the engine
   *  scans with the rules' patterns to decide which expressions are worth evaluating. */
  normalized: string;
}
