// Lint: typescript-eslint's recommended type-checked rules over the TypeScript of src/ and test/,
// ESLint's recommended rules over the plain JavaScript of scripts/ and the benchmarks. `npm test`
// runs it (`npm run lint`) and fails on any warning. The few rules turned off say why.
import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'reports/', 'coverage/', 'notebooks/', '**/*.d.ts'] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Terminal escapes and XML-invalid characters are matched on purpose: the toolkit strips them
      // from what it prints and writes (src/cli/io.ts, src/report/xml-text.ts, ...).
      'no-control-regex': 'off',
      // `_name` marks a parameter a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // An async function that does not await still turns a throw into a rejected promise: the
      // contract of every promise-returning API here, kept without awaiting for the rule's sake.
      '@typescript-eslint/require-await': 'off',
      // An AbortSignal's reason and a caught value are unknown by the platform's design, and are
      // passed on as they are (a caller's own abort reason comes back to it unchanged).
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true, allowRethrowing: true }],
    },
  },
  {
    // Tests read what the toolkit wrote (JSON, CSV, workbooks) as untyped values and assert on
    // them; typing every such read would repeat the assertion. Test callbacks are async by
    // vitest's convention whether they await or not.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Build scripts and benchmarks are plain JavaScript run by Node: no types to check.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
);
