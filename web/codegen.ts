import type { CodegenConfig } from '@graphql-codegen/cli';

// Types for the dashboard's GraphQL documents, generated from the API's committed schema
// (docs/decisions/019). `npm run codegen -w @tracker/web` after changing a document or the schema;
// test/documents.test.ts fails while the committed output is stale.
const config: CodegenConfig = {
  schema: '../api/schema.graphql',
  documents: ['app/**/*.{ts,tsx}', '!app/graphql/**'],
  ignoreNoDocuments: false,
  generates: {
    'app/graphql/': {
      preset: 'client',
      // The pages read whole results; masking would make every component unwrap fragments.
      presetConfig: { fragmentMasking: false },
      config: {
        // A string with its types attached: graphql.server.ts posts it with `fetch` as before, so
        // neither a GraphQL client nor graphql-js reaches the server bundle.
        documentMode: 'string',
        enumsAsTypes: true,
        onlyOperationTypes: true,
        skipTypename: true,
        useTypeImports: true,
        strictScalars: true,
        scalars: { ID: 'string', JSONObject: 'Record<string, unknown>', JSON: 'unknown' },
      },
    },
  },
};

export default config;
