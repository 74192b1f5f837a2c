// Writes api/schema.graphql from the code. CI's schema test fails when the two differ.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printSchema } from 'graphql';
import { getSchema } from '../src/schema';

getSchema().then((schema) => {
  writeFileSync(join(__dirname, '..', 'schema.graphql'), `${printSchema(schema)}\n`);
  console.log('wrote api/schema.graphql');
});
