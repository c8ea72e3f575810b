// Tokens and syntax tree of the shell parser. The tree keeps only what fact extraction needs: which
// commands run, their words, their redirections and what feeds their standard input.
import { WardenError } from '../../../errors.js';

/** Nesting bound for parentheses, substitutions and compound commands: deeper input is refused rather
 *  than risking the JavaScript stack. Real commands stay far below it. */
export const MAX_SYNTAX_NESTING = 64;

/** Thrown by the tokenizer and parser; the caller turns it into `parsed: false` (it never reaches anyone). */
export class ShellSyntaxError extends WardenError {
  constructor(message: string) {
    super('WARDEN_ERR_GUARDRAIL_SHELL_SYNTAX', message, { expose: false });
  }
}

export type Operator = '|' | '|&' | '&&' | '||' | ';' | '&' | '\n' | '(' | ')' | ';;' | ';&' | ';;&';

export type RedirectOperator = '<' | '>' | '>>' | '>|' | '<>' | '<&' | '>&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

/** A word is also its own token. */
export interface Word {
  kind: 'word';
  /** Quotes and escapes removed; expansions (`$HOME`, `$(…)`, `` `…` ``) kept as written. */
  text: string;
  /** How many leading characters of `text` were written plainly (no quote, escape or expansion): a word
   *  is a reserved word, an assignment or an fd number only if the relevant part is plain. */
  plain: number;
  /** The word is exactly one command substitution, possibly in double quotes: `"$(…)"`. */
  wholeSubstitution: boolean;
  /** Scripts that run to produce the word: `$(…)`, backticks, `<(…)`, `>(…)`. */
  substitutions: readonly Script[];
}

export interface HeredocBody {
  body: string;
  /** `$(…)` and backticks in the body of a heredoc whose delimiter is unquoted: they run. */
  substitutions: readonly Script[];
}

export type Token =
  | Word
  | { kind: 'op'; op: Operator }
  | { kind: 'redirect'; op: RedirectOperator; fd: string; heredoc?: HeredocBody }
  /** `(( … ))` arithmetic command: runs nothing. */
  | { kind: 'arith' };

/** The parser, handed to the tokenizer so that substitutions are parsed as soon as they are read. */
export type ParseTokens = (tokens: Token[], nesting: number) => Script;

export interface Redirect {
  op: RedirectOperator;
  fd: string;
  /** File, fd number, here-string word or heredoc delimiter. */
  target: Word;
  heredoc?: HeredocBody;
}

export interface SimpleCommand {
  kind: 'simple';
  assignments: readonly Word[];
  words: readonly Word[];
  redirects: readonly Redirect[];
}

/** Subshell, group, if, loops, case, function body: the walker only needs the scripts inside, the words
 *  they expand (for-lists, case subjects) and the redirections. */
export interface CompoundCommand {
  kind: 'compound';
  /** The name a `for`/`select` loop assigns each word of its list to. */
  loopVariable?: string;
  bodies: readonly Script[];
  words: readonly Word[];
  redirects: readonly Redirect[];
}

export type Command = SimpleCommand | CompoundCommand;

export interface Pipeline {
  commands: Command[];
}

/** `&&`, `||`, `;`, `&` and newlines all just sequence pipelines as far as facts go. */
export type Script = Pipeline[];
