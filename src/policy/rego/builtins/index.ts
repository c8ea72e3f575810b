// All builtin families, registered on import; the evaluator reads the table from here.

import './aggregates.js';
import './arithmetic.js';
import './collections.js';
import './comparison.js';
import './crypto.js';
import './encoding.js';
import './graphql.js';
import './json.js';
import './jwt.js';
import './misc.js';
import './net.js';
import './strings.js';
import './regex.js';
import './time.js';
import './types.js';
import './units.js';
import './uuid.js';

export { BUILTINS, MultiResult, type Builtin, type BuiltinContext } from './registry.js';
