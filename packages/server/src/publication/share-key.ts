// A share-link key is stored as its SHA-256 and looked up by it (the keys themselves and their
// constant-time comparison are the sites area's: packages/server/src/areas/sites/audience.ts). Here so
// that a space's published address (space-addresses.ts) can find the share-link site a key opens.
import { createHash } from 'node:crypto';

export const hashShareKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();
