// The Rego engine's behaviour that the OPA conformance cases do not pin: evaluation budgets against hostile
// modules, error texts with file:line:col, RE2 regexes (linear time, no backreferences), exact big integers,
// and the public entry points (query, evaluate, input_term parsing).

import assert from 'node:assert/strict';
import test from 'node:test';
import { RegoError, RegoPolicy, fromJSON, parseValue, toJSON } from '../../src/policy/rego/index.js';

function errorOf(f: () => unknown): RegoError {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof RegoError, `not a RegoError: ${String(err)}`);
    return err;
  }
  assert.fail('no error');
}

test('recursion through a function is a compile error naming the rule', () => {
  const err = errorOf(() => RegoPolicy.compile([{ file: 'loop.rego', source: 'package loop\n\nf(x) := y if {\n\ty := f(x + 1)\n}\n\np := f(0)\n' }]));
  assert.equal(err.code, 'rego_recursion_error');
  assert.match(err.message, /^loop\.rego:3:1: rego_recursion_error: rule data\.loop\.f is recursive: data\.loop\.f -> data\.loop\.f/);
});

test('recursion the compiler cannot see (a dynamic ref) ends in a budget error, not a hang', () => {
  const policy = RegoPolicy.compile([{ file: 'loop.rego', source: 'package loop\n\np := data.loop[k] if k := "p"\n' }]);
  const started = Date.now();
  const err = errorOf(() => policy.evaluate('data.loop.p'));
  assert.equal(err.code, 'eval_budget_error');
  assert.match(err.message, /^loop\.rego:3: eval_budget_error: evaluation exceeded depth/);
  assert.ok(Date.now() - started < 5000);
});

test('a huge comprehension ends in a budget error within the step budget', () => {
  const policy = RegoPolicy.compile([{ file: 'big.rego', source: 'package big\n\np := count([[x, y, z] | some x in numbers.range(1, 1000); some y in numbers.range(1, 1000); some z in numbers.range(1, 1000)])\n' }]);
  const started = Date.now();
  const err = errorOf(() => policy.evaluate('data.big.p', { limits: { maxSteps: 50_000 } }));
  assert.equal(err.code, 'eval_budget_error');
  assert.ok(Date.now() - started < 5000, 'the budget stopped it quickly');
});

test('output size is bounded', () => {
  const policy = RegoPolicy.compile([{ file: 'out.rego', source: 'package out\n\np := {x | some x in numbers.range(1, 5000)}\n' }]);
  assert.equal(errorOf(() => policy.evaluate('data.out.p', { limits: { maxOutput: 1000 } })).code, 'eval_budget_error');
  assert.equal((toJSON(policy.evaluate('data.out.p')!) as unknown[]).length, 5000, 'under the default budget the whole set is answered');
});

test('parse errors name file, line and column as OPA prints them', () => {
  const err = errorOf(() => RegoPolicy.compile([{ file: 'policy.rego', source: 'package p\n\nallow if {\n    input.x ==\n}\n' }]));
  assert.equal(err.code, 'rego_parse_error');
  assert.match(err.message, /^policy\.rego:4:15: rego_parse_error: unexpected newline token/);
  const unterminated = errorOf(() => RegoPolicy.compile([{ file: 'policy.rego', source: 'package p\n\nx := "abc\n' }]));
  assert.match(unterminated.message, /^policy\.rego:3:6: rego_parse_error: non-terminated string/);
});

test('conflicting outputs of a complete rule are an eval_conflict_error at the rule', () => {
  const policy = RegoPolicy.compile([{ file: 'c.rego', source: 'package c\n\np := 1 if input.a\n\np := 2 if input.b\n' }]);
  assert.equal(policy.evaluate('data.c.p', { input: fromJSON({ a: true }) }), 1);
  const err = errorOf(() => policy.evaluate('data.c.p', { input: fromJSON({ a: true, b: true }) }));
  assert.equal(err.code, 'eval_conflict_error');
  assert.match(err.message, /^c\.rego:5: eval_conflict_error: complete rules must not produce multiple outputs/);
});

test('builtin errors are undefined by default and errors with a position in strict mode', () => {
  const policy = RegoPolicy.compile([{ file: 's.rego', source: 'package s\n\np := x if {\n\tx := 1 / input.d\n}\n' }]);
  assert.equal(policy.evaluate('data.s.p', { input: fromJSON({ d: 0 }) }), undefined);
  const err = errorOf(() => policy.evaluate('data.s.p', { input: fromJSON({ d: 0 }), strictBuiltinErrors: true }));
  assert.equal(err.code, 'eval_builtin_error');
  assert.match(err.message, /^s\.rego:4: eval_builtin_error: div: divide by zero/);
});

test('regex runs on RE2: a catastrophic-backtracking pattern is linear, backreferences are rejected', () => {
  const policy = RegoPolicy.compile([{ file: 'r.rego', source: 'package r\n\nslow := regex.match(`^(a+)+$`, concat("", [s | some _ in numbers.range(1, 5000); s := "a"]) + "!")\n\nvalid := regex.is_valid(`(a)\\1`)\n' }].map((m) => ({ ...m, source: m.source.replace(' + "!"', '') })));
  const started = Date.now();
  assert.equal(policy.evaluate('data.r.slow'), true);
  assert.ok(Date.now() - started < 1000);
  assert.equal(policy.evaluate('data.r.valid'), false);
  const hostile = RegoPolicy.compile([{ file: 'h.rego', source: 'package h\n\np := regex.match(`^(a+)+$`, input.s)\n' }]);
  const t0 = Date.now();
  assert.equal(hostile.evaluate('data.h.p', { input: fromJSON({ s: 'a'.repeat(30000) + '!' }) }), false);
  assert.ok(Date.now() - t0 < 1000, 'no exponential backtracking');
});

test('integers past 2^53 stay exact through arithmetic and JSON', () => {
  const policy = RegoPolicy.compile([{ file: 'n.rego', source: 'package n\n\np := 9223372036854775807 - 1\n\nq := json.marshal([p])\n' }]);
  assert.equal(policy.evaluate('data.n.p'), 9223372036854775806n);
  assert.equal(policy.evaluate('data.n.q'), '[9223372036854775806]');
});

test('query solutions bind the query vars; input_term values keep sets', () => {
  const policy = RegoPolicy.compile([{ file: 'q.rego', source: 'package q\n\nimport rego.v1\n\nusers contains name if some name in input.names\n\nallow if "admin" in users\n' }]);
  const input = parseValue('{"names": {"admin", "bob"}}');
  const sols = policy.query('data.q.users[x]; data.q.allow', { input });
  assert.deepEqual(sols.map((s) => s.get('x')).sort(), ['admin', 'bob']);
  assert.equal(policy.evaluate('data.q.allow', { input: fromJSON({ names: ['bob'] }) }), undefined);
});

test('a rule computed once per policy is never reused where its inputs differ', () => {
  const source = [
    'package p',
    '',
    'constant := data.base.x * 10',
    'reads_input := input.x',
    'via_function := f(1)',
    'f(y) := input.x + y',
    'fresh := uuid.rfc4122("k")',
    'stamped := [data.base.x, time.now_ns()]',
    'fresh_via_rule := fresh',
  ].join('\n');
  const policy = RegoPolicy.compile([{ file: 'p.rego', source }], { base: { x: 1 } });
  const num = (v: unknown): number => Number(toJSON(v as never));
  assert.equal(num(policy.evaluate('data.p.constant')), 10);
  assert.equal(num(policy.evaluate('data.p.constant')), 10);
  // `with data` and `with input` change what the rule sees: the remembered value must not leak in or out
  assert.equal(num(policy.query('x := data.p.constant with data.base.x as 2')[0]?.get('x')), 20);
  assert.equal(num(policy.evaluate('data.p.constant')), 10);
  assert.equal(num(policy.query('x := data.p.reads_input with input as {"x": 7}')[0]?.get('x')), 7);
  // a data change builds a new policy, with its own values
  assert.equal(num(policy.withData({ base: { x: 3 } }).evaluate('data.p.constant')), 30);
  assert.equal(num(policy.evaluate('data.p.constant')), 10);
  // rules that read input, directly or through a function, follow each query's input
  for (const x of [1, 2]) {
    assert.equal(num(policy.evaluate('data.p.reads_input', { input: fromJSON({ x }) })), x);
    assert.equal(num(policy.evaluate('data.p.via_function', { input: fromJSON({ x }) })), x + 1);
  }
  // non-deterministic builtins give one answer per query, not one per policy (also through another rule)
  assert.notEqual(toJSON(policy.evaluate('data.p.fresh')!), toJSON(policy.evaluate('data.p.fresh')!));
  assert.notEqual(toJSON(policy.evaluate('data.p.fresh_via_rule')!), toJSON(policy.evaluate('data.p.fresh_via_rule')!));
  const first = toJSON(policy.evaluate('data.p.stamped')!) as unknown[];
  const started = process.hrtime.bigint();
  while (process.hrtime.bigint() - started < 2_000_000n);
  assert.notDeepEqual(toJSON(policy.evaluate('data.p.stamped')!), first);
});
