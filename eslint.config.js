import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // test/corpus holds sample skills written to be scanned (some deliberately malicious), not project code.
  { ignores: ['dist/', 'node_modules/', 'bench/results/', 'test/corpus/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
);
