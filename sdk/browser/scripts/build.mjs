import { fileURLToPath } from 'node:url';
import { buildSdk } from '../../core/scripts/build-sdk.mjs';

await buildSdk({ dir: fileURLToPath(new URL('..', import.meta.url)), platform: 'browser', globalName: 'Tracker' });
