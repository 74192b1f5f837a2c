// The last step of the server's build: npm tarballs of the SDKs into dist/sdk, which the server
// serves under /sdk/ (docs/decisions/014-sdks-served-by-the-instance.md).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { packSdks, DEFAULT_SDK_DIR } = require('../dist/sdk-dist/pack-sdks.js');
const paths = packSdks(DEFAULT_SDK_DIR);
console.log(`packed ${Object.keys(paths).join(', ')} into ${DEFAULT_SDK_DIR}`);
