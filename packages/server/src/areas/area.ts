// A resource area's descriptor: everything the rest of the server needs to know about it, in one place.
// The handler map, transfers, purges, duplicates, the job workers and the access rules are all built
// from the list of areas (areas/index.ts). Every table of the database belongs to one area (`tsc` fails
// on a table no area lists), which declares how its rows follow a transferred or duplicated space; the
// lifecycle (areas/lifecycle.ts) copies them from that declaration, and refuses to run while a table
// linked to spaces or collections has none — so a new table is never silently left behind.
import type { RawBuilder } from 'kysely';
import type { AnyAccessRule } from '../access/rules.js';
import type { ScopeLookups } from '../access/scopes.js';
import type { AccessRuleName, components } from '@content-workspace/contract';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
import type { DB } from '../db/schema.js';
import type { AreaHandlers } from '../http/handler.js';
import type { JobWorker } from '../jobs/queue.js';

/** What a cross-organization transfer moves: the item at the top, and every collection and space (deleted ones included) inside. */
export type TransferScope = {
  from: string;
  to: string;
  /** The transferred item, its new parent in the target organization, and its position there. */
  rootId: string;
  targetParentId: string | null;
  rootPosition: string;
  collectionIds: string[];
  spaceIds: string[];
};

/** What a transfer step may use beside its transaction: the server's blob store (file bytes move too). */
export type TransferServices = Pick<AppContext, 'blobs'>;

/** Work of an area's own in a transfer, beyond copying its tables' rows (which the lifecycle does from `tables`). */
export type TransferStep = (trx: Executor, scope: TransferScope, services: TransferServices) => Promise<void>;

/** A space being duplicated: its copy exists (row and first revision) when the steps run. */
export type DuplicateScope = { organizationId: string; sourceSpaceId: string; copySpaceId: string };

/** Work of an area's own in a duplicate, beyond copying its tables' rows. */
export type DuplicateStep = (trx: Executor, scope: DuplicateScope) => Promise<void>;

/** Spaces removed for good by the purge (their rows that reference `spaces` go by cascade). */
export type PurgeScope = { spaces: Array<{ organizationId: string; id: string }> };

/** An area's share of a purge: remove what does not cascade from `spaces` (run before the spaces go). */
export type PurgeStep = (trx: Executor, scope: PurgeScope) => Promise<void>;

/**
 * Requests an area answers outside the API (/v1) and its contract, by where app.ts mounts them:
 * - `beforeApi`: after the health endpoints and the API reference, before the caller is resolved — no
 *   token, no API rate limit (the area charges what it must), no validator; its handler answers what
 *   is its own and passes anything else on (`next()`). Published sites are answered there.
 */
export type AreaRoutes = {
  beforeApi?: (context: AppContext) => RequestHandler;
};

/** A table of the database, as Kysely names it (camelCase). */
export type TableName = keyof DB & string;

/**
 * New values for some columns of the copied rows (as Kysely names them), as SQL reading the source row
 * as `src`: `{ updatedAt: sql`now()` }`. Every other column is copied as it is.
 */
export type Rewrite<T extends TableName, S> = (scope: S) => Partial<Record<keyof DB[T] & string, RawBuilder<unknown>>>;

/**
 * What a cross-organization transfer does with the table's rows of the moved spaces and collections
 * (the originals are then deleted by cascade):
 * - `'moves'`: every row is copied under the target organization, columns read from the database;
 * - `{ moves: { set, only, why } }`: the same with some columns rewritten, or only the rows `only` keeps;
 * - `{ dropped: why }`: the rows go with the originals, on purpose.
 */
export type TransferFate<T extends TableName> =
  | 'moves'
  | { moves: { set?: Rewrite<T, TransferScope>; only?: (scope: TransferScope) => RawBuilder<boolean>; why: string } }
  | { dropped: string };

/**
 * What duplicating a space does with the table's rows of the original:
 * - `'copied'`: every row is copied to the new space (the table's primary key must hold its space id);
 * - `{ copied: { set, why } }`: the same with some columns rewritten;
 * - `{ dropped: why }`: the copy starts without them, on purpose.
 */
export type DuplicateFate<T extends TableName> = 'copied' | { copied: { set?: Rewrite<T, DuplicateScope>; why: string } } | { dropped: string };

/**
 * How a table's rows follow its space or collection. A table linked to `spaces` or `collections` by
 * foreign keys (directly or through other tables: a transfer deletes its rows by cascade) declares
 * `transfer` and `duplicate`; any other table `stays` (why it belongs to no space). The catalogue test
 * (test/structure/catalogue.test.ts) checks each declaration against the database's foreign keys.
 */
export type TableFate<T extends TableName> = { stays: string } | { transfer: TransferFate<T>; duplicate: DuplicateFate<T> };

/** The tables an area owns, each with its fate. */
export type OwnedTables = { readonly [T in TableName]?: TableFate<T> };

export type Area<H extends AreaHandlers = AreaHandlers, T extends OwnedTables = OwnedTables> = {
  name: string;
  handlers: H;
  /** Every table the area owns, with how its rows follow a transferred or duplicated space. */
  tables: T;
  /**
   * Work beyond the rows of the area's tables, run after every table's rows are copied: objects shared
   * by content address (copied by reachability), an organization's search words, repairs in what stays.
   * A purge's steps remove what does not cascade from `spaces` (run before the spaces go).
   */
  steps?: { transfer?: readonly TransferStep[]; duplicate?: readonly DuplicateStep[]; purge?: readonly PurgeStep[] };
  /**
   * The event types the area records (the contract's catalogue, spec/components/schemas/EventType.yaml),
   * in the transaction of the change each describes (areas/events/record.ts). Each type has one owner.
   */
  events?: readonly components['schemas']['EventType'][];
  /** Background workers the area runs. */
  jobs?: (context: Omit<AppContext, 'jobs'>) => JobWorker[];
  /** Access rules the area brings (named in its operations' `x-access`). */
  rules?: Partial<Record<AccessRuleName, AnyAccessRule>>;
  /**
   * Constraints of the area's tables that a concurrent request can break although this one was checked
   * (a referenced row deleted meanwhile), each with the conflict it means: answered 409. Any other
   * constraint violation is a bug (500).
   */
  conflicts?: Readonly<Record<string, string>>;
  /** How the scopes whose resource the area owns are found (the change-requests area: a request by id or number). */
  scopeLookups?: Partial<ScopeLookups>;
  /** Routes outside the API, by mount point (areas of the list mount theirs in its order). */
  routes?: AreaRoutes;
};

/** Declares an area, keeping its handlers' and tables' exact types so the registry can check coverage. */
export function defineArea<const H extends AreaHandlers, const T extends OwnedTables, const N extends string>(area: Area<H, T> & { name: N }): Area<H, T> & { name: N } {
  return area;
}
