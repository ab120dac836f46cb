// Where file bytes live, behind a small interface so an S3-compatible store can replace PostgreSQL
// (docs/design/content-model.md, "Files and garbage collection"). Bytes are content-addressed by sha256 within an organization. Operations take the
// caller's executor: the PostgreSQL store writes inside the content transaction (nothing is stored
// when a batch fails); a remote store would ignore it, and leave unreferenced objects to the
// garbage collection that also reclaims unreachable content objects. The store in use is the server's
// (`context.blobs`, chosen once in server.ts), handed to what reads and writes bytes.
import { sql } from 'kysely';
import { copyRows } from '../db/copy-rows.js';
import type { Executor } from '../db/database.js';

export interface BlobStore {
  /** Name recorded in `file_blobs.storage`. */
  readonly name: string;
  /** Stores the bytes under their sha256 (hex); storing existing bytes again is a no-op. */
  put(db: Executor, organizationId: string, sha256: string, bytes: Buffer): Promise<void>;
  get(db: Executor, organizationId: string, sha256: string): Promise<Buffer | undefined>;
  /** Makes the given blobs of `from` available under `to` (cross-organization transfer). */
  copy(db: Executor, from: string, to: string, sha256s: string[]): Promise<void>;
  /** Deletes the given blobs of the organization (garbage collection; nothing references them). */
  remove(db: Executor, organizationId: string, sha256s: string[]): Promise<void>;
}

export const postgresBlobStore: BlobStore = {
  name: 'postgres',
  async put(db, organizationId, sha256, bytes) {
    await db
      .insertInto('blobBytes')
      .values({ organizationId, sha256: Buffer.from(sha256, 'hex'), data: bytes })
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
  async get(db, organizationId, sha256) {
    const row = await db
      .selectFrom('blobBytes')
      .select('data')
      .where('organizationId', '=', organizationId)
      .where('sha256', '=', Buffer.from(sha256, 'hex'))
      .executeTakeFirst();
    return row?.data;
  },
  async copy(db, from, to, sha256s) {
    if (sha256s.length === 0) return;
    await copyRows(db, 'blob_bytes', {
      set: { organization_id: to },
      where: sql<boolean>`src.organization_id = ${from} AND src.sha256 = ANY(${sha256s.map((h) => Buffer.from(h, 'hex'))}::bytea[])`,
      skipExisting: true,
      orderBy: ['sha256'],
    });
  },
  async remove(db, organizationId, sha256s) {
    if (sha256s.length === 0) return;
    await sql`
      DELETE FROM blob_bytes
      WHERE organization_id = ${organizationId} AND sha256 = ANY(${sha256s.map((h) => Buffer.from(h, 'hex'))}::bytea[])`.execute(db);
  },
};
