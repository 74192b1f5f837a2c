import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { SDK_PACKAGES, type SdkTarballName } from './pack-sdks';
import { readTar, writeTar } from './tar';

/** One file under `/sdk/`, in every encoding it is served in. */
export interface SdkFile {
  name: string;
  /** The version of the package it comes from: its versioned URL is `/sdk/<version>/<name>`. */
  version: string;
  contentType: string;
  body: Buffer;
  /** Precompressed copies (scripts and maps; tarballs are gzip already). */
  encoded: { br?: Buffer; gzip?: Buffer };
  /** Strong validator of the identity body; encoded copies append their coding. */
  etag: string;
  /** `sha384-…` of the body, for `<script integrity>`. */
  integrity: string;
}

/** What the setup page shows: absolute, versioned URLs on this instance, and the SRI hashes. */
export interface SdkSetupInfo {
  /** This instance's public URL (TRACKER_PUBLIC_URL), the origin of its DSNs. */
  publicUrl: string;
  version: string;
  scriptUrl: string;
  scriptIntegrity: string;
  moduleUrl: string;
  moduleIntegrity: string;
  tarballs: { browser: string; node: string; next: string };
}

export interface SdkAssets {
  /** The file served as `/sdk/<name>` (and `/sdk/<its version>/<name>`), or undefined. */
  find(name: string): SdkFile | undefined;
  setupInfo(): SdkSetupInfo;
}

/** The browser SDK's files served on their own, out of its tarball (the bytes npm would install). */
const BROWSER_FILES: Record<string, string> = {
  'tracker.min.js': 'text/javascript; charset=utf-8',
  'tracker.min.js.map': 'application/json; charset=utf-8',
  'tracker.mjs': 'text/javascript; charset=utf-8',
  'tracker.mjs.map': 'application/json; charset=utf-8',
};

const TARBALL_TYPE = 'application/gzip';

/**
 * Compressed on first request and kept: brotli at quality 11 of the four files took 1.8 s of
 * start-up on a loaded 2-core machine, for files most instances serve rarely.
 */
function lazyEncodings(body: Buffer): SdkFile['encoded'] {
  let br: Buffer | undefined;
  let gzip: Buffer | undefined;
  return {
    get br() {
      return (br ??= brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
    },
    get gzip() {
      return (gzip ??= gzipSync(body, { level: 9 }));
    },
  };
}

function sdkFile(name: string, version: string, contentType: string, body: Buffer): SdkFile {
  const compress = contentType !== TARBALL_TYPE;
  return {
    name,
    version,
    contentType,
    body,
    encoded: compress ? lazyEncodings(body) : {},
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
  };
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
}

/** The tarball's `package/package.json`. */
function manifestOf(entries: ReturnType<typeof readTar>): PackageJson {
  const entry = entries.find((e) => e.name === 'package/package.json');
  if (!entry) throw new Error('not an npm tarball: no package/package.json');
  return JSON.parse(entry.data.toString('utf8')) as PackageJson;
}

/**
 * Loads the tarballs `packSdks` wrote into `dir`. Returns undefined when they are missing (a
 * server run from sources without a build): `/sdk/` then answers 404 saying so.
 *
 * `@tracker/next` depends on `@tracker/browser` and `@tracker/node`, which are on no registry:
 * its tarball is served with those two dependencies pointing at this instance's versioned
 * tarball URLs, rewritten for the public URL on first request (docs/decisions/014).
 */
export function loadSdkAssets(dir: string, publicUrl: () => string): SdkAssets | undefined {
  const paths = Object.keys(SDK_PACKAGES).map((file) => join(dir, file));
  if (!paths.every((p) => existsSync(p))) return undefined;

  const files = new Map<string, SdkFile>();
  const versions = {} as Record<SdkTarballName, string>;
  const packed = {} as Record<SdkTarballName, { tgz: Buffer; entries: ReturnType<typeof readTar> }>;
  for (const file of Object.keys(SDK_PACKAGES) as SdkTarballName[]) {
    const tgz = readFileSync(join(dir, file));
    const entries = readTar(gunzipSync(tgz));
    const pkg = manifestOf(entries);
    if (pkg.name !== SDK_PACKAGES[file]) throw new Error(`${file} holds ${pkg.name}, not ${SDK_PACKAGES[file]}`);
    versions[file] = pkg.version;
    packed[file] = { tgz, entries };
    if (file !== 'tracker-next.tgz') files.set(file, sdkFile(file, pkg.version, TARBALL_TYPE, tgz));
  }
  for (const [name, type] of Object.entries(BROWSER_FILES)) {
    const entry = packed['tracker-browser.tgz'].entries.find((e) => e.name === `package/dist/${name}`);
    if (!entry) throw new Error(`tracker-browser.tgz has no dist/${name}: rebuild @tracker/browser`);
    files.set(name, sdkFile(name, versions['tracker-browser.tgz'], type, entry.data));
  }

  const versionedUrl = (origin: string, file: string) => `${origin}/sdk/${versions[file as SdkTarballName]}/${file}`;
  const browserVersion = versions['tracker-browser.tgz'];
  let next: { origin: string; file: SdkFile } | undefined;
  function nextTarball(): SdkFile {
    const origin = publicUrl().replace(/\/+$/, '');
    if (next?.origin !== origin) {
      const entries = packed['tracker-next.tgz'].entries.map((entry) => {
        if (entry.name !== 'package/package.json') return entry;
        const pkg = JSON.parse(entry.data.toString('utf8')) as PackageJson;
        for (const dep of Object.keys(pkg.dependencies ?? {})) {
          const file = Object.entries(SDK_PACKAGES).find(([, name]) => name === dep)?.[0];
          if (file) pkg.dependencies![dep] = versionedUrl(origin, file);
        }
        return { ...entry, data: Buffer.from(JSON.stringify(pkg, null, 2) + '\n') };
      });
      // gzip is deterministic for the same input and level: the same instance URL always
      // serves the same bytes, so a lockfile's integrity stays valid.
      const tgz = gzipSync(writeTar(entries), { level: 9 });
      next = { origin, file: sdkFile('tracker-next.tgz', versions['tracker-next.tgz'], TARBALL_TYPE, tgz) };
    }
    return next.file;
  }

  return {
    find: (name) => (name === 'tracker-next.tgz' ? nextTarball() : files.get(name)),
    setupInfo() {
      const origin = publicUrl().replace(/\/+$/, '');
      return {
        publicUrl: origin,
        version: browserVersion,
        scriptUrl: `${origin}/sdk/${browserVersion}/tracker.min.js`,
        scriptIntegrity: files.get('tracker.min.js')!.integrity,
        moduleUrl: `${origin}/sdk/${browserVersion}/tracker.mjs`,
        moduleIntegrity: files.get('tracker.mjs')!.integrity,
        tarballs: {
          browser: versionedUrl(origin, 'tracker-browser.tgz'),
          node: versionedUrl(origin, 'tracker-node.tgz'),
          next: versionedUrl(origin, 'tracker-next.tgz'),
        },
      };
    },
  };
}
