// One linter for the whole repo (typescript-eslint's recommended rules); Prettier formats.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/build/**',
      '**/node_modules/**',
      '**/.next/**',
      '**/next-env.d.ts',
      '**/.turbo/**',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      // Tests and GraphQL plumbing read untyped JSON; `any` there is deliberate and local.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
