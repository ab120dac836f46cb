// A resource area's descriptor: everything the rest of the server needs to know about it, in one place.
// The handler map, transfers, purges, duplicates, the job workers and the access rules are all built
// from the list of areas (areas/index.ts), and a test reads the database catalogue to check that every
// table holding an organization's or a space's data belongs to an area — so a new table is never
// silently left behind by a transfer or a purge.
import type { AnyAccessRule } from '../access/rules.js';
import type { ScopeLookups } from '../access/scopes.js';
import type { AccessRuleName } from '@content-workspace/contract';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import type { Executor } from '../db/database.js';
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

/**
 * An area's share of a cross-organization transfer: copy its rows of the moved items under `scope.to`
 * (the originals are then deleted by cascade from `spaces`/`collections`, so a table without a step
 * loses its rows).
 */
export type TransferStep = (trx: Executor, scope: TransferScope, services: TransferServices) => Promise<void>;

/** A space being duplicated: its copy exists (row and first revision) when the steps run. */
export type DuplicateScope = { organizationId: string; sourceSpaceId: string; copySpaceId: string };

/** An area's share of duplicating a space: copy what a duplicate keeps of its rows. */
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

export type Area<H extends AreaHandlers = AreaHandlers> = {
  name: string;
  handlers: H;
  /** The tables the area owns (snake_case, as in the database). */
  tables: readonly string[];
  /** Copy steps for a transfer, in the order they must run after the areas before; 'none' when its rows do not follow spaces or collections. */
  transfer: readonly TransferStep[] | 'none';
  /** Steps for a purge beyond the cascade from `spaces`; 'none' when the cascade removes everything. */
  purge: readonly PurgeStep[] | 'none';
  /** Copy steps for a duplicated space; 'none' when a duplicate starts without the area's rows. */
  duplicate: readonly DuplicateStep[] | 'none';
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

/** Declares an area, keeping its handlers' exact type so the registry can check coverage. */
export function defineArea<const H extends AreaHandlers>(area: Area<H>): Area<H> {
  return area;
}
