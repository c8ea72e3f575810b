// Hand-written parser for POSIX sh and common bash, producing the small tree in syntax.ts.
//
// Why hand-written: tree-sitter-bash through WebAssembly was measured here at 39 µs per short command and
// 1.2 ms per 4 KiB script, twenty times the inspection budget; shell-quote only tokenizes and does not
// model subshells, command substitution or nested `bash -c` strings. This parser runs in linear time,
// refuses input nested deeper than MAX_SYNTAX_NESTING, and throws ShellSyntaxError on anything it cannot
// read, so the caller can report `parsed: false` and let the engine fall back to patterns.
import { TokenCursor } from './token-cursor.js';
import { tokenize } from './tokenizer.js';
import {
  ShellSyntaxError,
  type Command,
  type CompoundCommand,
  type Pipeline,
  type Redirect,
  type Script,
  type SimpleCommand,
  type Token,
  type Word,
} from './syntax.js';

const NONE = new Set<string>();
const THEN = new Set(['then']);
const AFTER_THEN = new Set(['elif', 'else', 'fi']);
const FI = new Set(['fi']);
const DO = new Set(['do']);
const DONE = new Set(['done']);
const ESAC = new Set(['esac']);
const CLOSE_BRACE = new Set(['}']);
/** Words that may only close a construct; in command position anywhere else they are a syntax error. */
const CLOSERS = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', 'esac', '}']);
/** Reserved words that start a command other than a simple one, and the closers. */
const RESERVED = new Set([...CLOSERS, '{', 'if', 'while', 'until', 'for', 'select', 'case', 'function', '[[']);
/** For each first character, bit `1 << length` of every reserved word starting with it. A word matching
 *  none is not looked up in a Set: that would hash it, a new string each time, and this rules out most
 *  command names (`grep`, `sort`, `git`, `npm`) for the price of one character and a mask. */
const RESERVED_SHAPES = new Uint32Array(128);
for (const word of RESERVED) {
  const first = word.charCodeAt(0);
  RESERVED_SHAPES[first] = RESERVED_SHAPES[first]! | (1 << word.length);
}
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
const NO_WORDS: readonly Word[] = [];
const NO_REDIRECTS: readonly Redirect[] = [];

const parseTokens = (tokens: Token[], nesting: number): Script => new Parser(tokens, nesting).program();

export function parseShell(text: string): Script {
  return parseTokens(tokenize(text, parseTokens), 0);
}

class Parser extends TokenCursor {
  program(): Script {
    const script = this.script(NONE);
    const left = this.tokens[this.i];
    if (left) throw new ShellSyntaxError(`unexpected ${left.kind === 'op' ? left.op : left.kind}`);
    return script;
  }

  /** Pipelines up to the end, a closing operator (`)`, `;;`) or one of `closers` (reserved words) in command
   *  position. */
  private script(closers: ReadonlySet<string>): Script {
    const pipelines: Script = [];
    for (;;) {
      const t = this.peek();
      if (!t) return pipelines;
      if (t.kind === 'op') {
        if (t.op === ';' || t.op === '&' || t.op === '\n') {
          this.i++;
          continue;
        }
        if (t.op === ')' || t.op === ';;' || t.op === ';&' || t.op === ';;&') return pipelines;
      }
      if (isReservedIn(this.reserved(), closers)) return pipelines;
      pipelines.push(this.pipeline());
      while (this.isOp('&&') || this.isOp('||')) {
        this.i++;
        this.skipNewlines();
        pipelines.push(this.pipeline());
      }
      const after = this.peek();
      if (after?.kind === 'word' || after?.kind === 'redirect' || after?.kind === 'arith') {
        throw new ShellSyntaxError('unexpected word after command');
      }
      if (after?.kind === 'op' && after.op === '(') throw new ShellSyntaxError('unexpected (');
    }
  }

  private pipeline(): Pipeline {
    if (this.reserved() === '!') this.i++;
    const commands = [this.command()];
    while (this.isOp('|') || this.isOp('|&')) {
      this.i++;
      this.skipNewlines();
      commands.push(this.command());
    }
    return { commands };
  }

  private command(): Command {
    const t = this.peek();
    if (!t) throw new ShellSyntaxError('missing command');
    if (t.kind === 'arith') {
      this.i++;
      return this.compound([], []);
    }
    if (t.kind === 'op') {
      if (t.op !== '(') throw new ShellSyntaxError(`unexpected ${t.op}`);
      this.i++;
      const body = this.nested(() => this.script(NONE));
      this.expectOp(')');
      return this.compound([body], []);
    }
    const word = this.reserved();
    if (word !== undefined && isReservedIn(word, RESERVED)) return this.reservedCommand(word);
    const next = this.tokens[this.i + 1];
    if (t.kind === 'word' && next?.kind === 'op' && next.op === '(') {
      this.i++;
      return this.functionDefinition();
    }
    return this.simple();
  }

  private reservedCommand(word: string): Command {
    if (CLOSERS.has(word)) throw new ShellSyntaxError(`unexpected ${word}`);
    switch (word) {
      case '{':
        return this.group();
      case 'if':
        return this.nested(() => this.ifClause());
      case 'while':
      case 'until':
        return this.nested(() => this.whileClause());
      case 'for':
      case 'select':
        return this.nested(() => this.forClause());
      case 'case':
        return this.nested(() => this.caseClause());
      case 'function':
        this.i += 2;
        return this.functionDefinition();
      default:
        return this.conditional();
    }
  }

  private compound(bodies: Script[], words: readonly Word[]): CompoundCommand {
    return { kind: 'compound', bodies, words, redirects: this.peek()?.kind === 'redirect' ? this.redirects([]) : NO_REDIRECTS };
  }

  private group(): CompoundCommand {
    this.i++;
    const body = this.nested(() => this.script(CLOSE_BRACE));
    this.expectReserved('}');
    return this.compound([body], []);
  }

  private ifClause(): CompoundCommand {
    this.i++;
    const bodies = [this.script(THEN)];
    this.expectReserved('then');
    bodies.push(this.script(AFTER_THEN));
    while (this.reserved() === 'elif') {
      this.i++;
      bodies.push(this.script(THEN));
      this.expectReserved('then');
      bodies.push(this.script(AFTER_THEN));
    }
    if (this.reserved() === 'else') {
      this.i++;
      bodies.push(this.script(FI));
    }
    this.expectReserved('fi');
    return this.compound(bodies, []);
  }

  private whileClause(): CompoundCommand {
    this.i++;
    const condition = this.script(DO);
    this.expectReserved('do');
    const body = this.script(DONE);
    this.expectReserved('done');
    return this.compound([condition, body], []);
  }

  private forClause(): CompoundCommand {
    this.i++;
    const t = this.peek();
    if (t?.kind !== 'word' && t?.kind !== 'arith') throw new ShellSyntaxError('for without a name');
    const loopVariable = t.kind === 'word' ? t.text : undefined;
    this.i++;
    this.skipNewlines();
    const words: Word[] = [];
    if (this.reserved() === 'in') {
      this.i++;
      for (let w = this.peek(); w?.kind === 'word'; w = this.peek()) {
        words.push(w);
        this.i++;
      }
    }
    if (this.isOp(';')) this.i++;
    this.skipNewlines();
    if (this.reserved() === '{') return { ...this.group(), words, loopVariable };
    this.expectReserved('do');
    const body = this.script(DONE);
    this.expectReserved('done');
    return { ...this.compound([body], words), loopVariable };
  }

  private caseClause(): CompoundCommand {
    this.i++;
    const subject = this.peek();
    if (subject?.kind !== 'word') throw new ShellSyntaxError('case without a word');
    const words = [subject];
    this.i++;
    this.skipNewlines();
    this.expectReserved('in');
    const bodies: Script[] = [];
    for (;;) {
      this.skipNewlines();
      if (this.reserved() === 'esac') break;
      if (this.isOp('(')) this.i++;
      for (;;) {
        const pattern = this.peek();
        if (pattern?.kind !== 'word') throw new ShellSyntaxError('case pattern expected');
        words.push(pattern);
        this.i++;
        if (!this.isOp('|')) break;
        this.i++;
      }
      this.expectOp(')');
      bodies.push(this.script(ESAC));
      const t = this.peek();
      if (t?.kind === 'op' && (t.op === ';;' || t.op === ';&' || t.op === ';;&')) this.i++;
      else if (this.reserved() !== 'esac') throw new ShellSyntaxError('expected ;; or esac');
    }
    this.i++;
    return this.compound(bodies, words);
  }

  /** The rest of `name () body` or `function name [()] body`. The body's commands are reported as if they
   *  ran: defining a function and calling it are one step apart. */
  private functionDefinition(): Command {
    if (this.isOp('(')) {
      this.i++;
      this.expectOp(')');
    }
    this.skipNewlines();
    return this.nested(() => this.command());
  }

  /** `[[ … ]]`: operators inside are operands, so everything up to `]]` becomes an argument. */
  private conditional(): SimpleCommand {
    const words: Word[] = [];
    for (;;) {
      const t = this.peek();
      if (!t) throw new ShellSyntaxError('unterminated [[');
      this.i++;
      if (t.kind === 'word') words.push(t);
      else if (t.kind !== 'arith' && !(t.kind === 'op' && t.op === '\n')) words.push(literal(t.op));
      if (t.kind === 'word' && t.text === ']]' && words.length > 1) break;
    }
    return { kind: 'simple', assignments: NO_WORDS, words, redirects: this.redirects([]) };
  }

  private simple(): SimpleCommand {
    // Most commands have no assignments or redirections: those arrays are only allocated when needed.
    let assignments: Word[] | undefined;
    const words: Word[] = [];
    let redirects: Redirect[] | undefined;
    for (let t = this.peek(); t; t = this.peek()) {
      if (t.kind === 'redirect') {
        this.redirects((redirects ??= []));
      } else if (t.kind === 'word') {
        if (words.length === 0 && isAssignmentWord(t)) (assignments ??= []).push(t);
        else words.push(t);
        this.i++;
      } else {
        break;
      }
    }
    if (words.length === 0 && !assignments && !redirects) throw new ShellSyntaxError('missing command');
    return { kind: 'simple', assignments: assignments ?? NO_WORDS, words, redirects: redirects ?? NO_REDIRECTS };
  }

  /** Redirections at the cursor, appended to `into`. */
  private redirects(into: Redirect[]): Redirect[] {
    for (let t = this.peek(); t?.kind === 'redirect'; t = this.peek()) {
      const target = this.tokens[this.i + 1];
      if (target?.kind !== 'word') throw new ShellSyntaxError('redirection without a target');
      into.push({ op: t.op, fd: t.fd, target, heredoc: t.heredoc });
      this.i += 2;
    }
    return into;
  }
}

/** Whether `word` is one of `words`, a subset of RESERVED (from which the shape filter is built). */
function isReservedIn(word: string | undefined, words: ReadonlySet<string>): boolean {
  if (word === undefined) return false;
  const first = word.charCodeAt(0);
  // Lengths from 32 on wrap around in the shift: such a word is merely looked up.
  return first < 128 && (RESERVED_SHAPES[first]! & (1 << word.length)) !== 0 && words.has(word);
}

function literal(text: string): Word {
  return { kind: 'word', text, plain: text.length, wholeSubstitution: false, substitutions: [] };
}

/** `NAME=value` (also `NAME+=`, `NAME[i]=`) with the name and `=` unquoted. */
function isAssignmentWord(word: Word): boolean {
  const eq = word.text.indexOf('=');
  if (eq <= 0 || eq >= word.plain) return false;
  return (ASSIGNMENT.exec(word.text)?.[0].length ?? Infinity) <= word.plain;
}
