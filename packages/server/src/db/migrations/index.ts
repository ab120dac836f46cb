// Every migration, by name. Names sort in the order they run: `YYYYMMDDTHHMMSS_name`.
// A static map (rather than a folder scan) works the same under tsx, tsc output and bundlers.
import type { Migration } from 'kysely';
import * as identity from './20261121T200000_identity.js';
import * as spacesAndAccess from './20261121T210000_spaces_and_access.js';
import * as contentStore from './20261122T000000_content_store.js';

export const migrations: Record<string, Migration> = {
  '20261121T200000_identity': identity,
  '20261121T210000_spaces_and_access': spacesAndAccess,
  '20261122T000000_content_store': contentStore,
};
