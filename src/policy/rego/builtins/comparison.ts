// Comparison operators (==, !=, <, <=, >, >=) over Rego's total order, and the `in` operator's membership.

import { lookup, members } from '../value.js';
import { compare, equal } from '../value.js';
import { def } from './registry.js';

def('equal', 2, ([a, b]) => equal(a!, b!));
def('neq', 2, ([a, b]) => !equal(a!, b!));
def('lt', 2, ([a, b]) => compare(a!, b!) < 0);
def('lte', 2, ([a, b]) => compare(a!, b!) <= 0);
def('gt', 2, ([a, b]) => compare(a!, b!) > 0);
def('gte', 2, ([a, b]) => compare(a!, b!) >= 0);
def('internal.member', 2, ([x, c]) => members(c!).some(([, v]) => equal(v, x!)));
def('internal.member_3', 3, ([k, v, c]) => {
  const x = lookup(c!, k!);
  return x !== undefined && equal(x, v!);
});
