import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes, 1 lane); @node-rs/argon2
// ships prebuilt binaries, so installs need no compiler and no install scripts (STACK.md).
const OPTIONS = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const MIN_PASSWORD_LENGTH = 8;
/** Longer inputs are refused before hashing: argon2 would accept them, but they only cost CPU. */
export const MAX_PASSWORD_LENGTH = 1024;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
