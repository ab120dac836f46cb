// Every resource area of the server, registered once. The handler map, the lifecycle (what a transfer,
// a duplicate and a purge do with each table's rows), the job workers, the access rules and the routes
// outside the API are built from this list; the areas' own transfer steps run in its order, after every
// table's rows are copied, and their routes are mounted in its order.
import type { AccessRuleRegistry } from '../access/rules.js';
import type { ScopeLookups } from '../access/scopes.js';
import { coreRules } from '../access/rules.js';
import { decidePermissionsWith } from './permissions-objects.js';
import type { AppContext } from '../context.js';
import type { HandlerMap } from '../http/handler.js';
import type { JobWorker } from '../jobs/queue.js';
import type { RequestHandler } from 'express';
import type { Area, AreaRoutes, TableName } from './area.js';
import { changeRequestsArea } from './change-requests/index.js';
import { collectionsArea } from './collections/index.js';
import { commentsArea } from './comments/index.js';
import { contentArea } from './content/index.js';
import { customFieldsArea } from './custom-fields/index.js';
import { invitesArea } from './invites/index.js';
import { membersArea } from './members/index.js';
import { openAPISpecsArea } from './openapi-specs/index.js';
import { organizationsArea } from './organizations/index.js';
import { permissionsArea } from './permissions/index.js';
import { samlArea } from './saml/index.js';
import { spacesArea } from './spaces/index.js';
import { teamsArea } from './teams/index.js';
import { translationsArea } from './translations/index.js';
import { usersArea } from './users/index.js';
import { importArea } from './import/index.js';
import { pdfArea } from './pdf/index.js';
import { sitesArea } from './sites/index.js';
import { linksArea } from './links/index.js';
import { searchArea } from './search/index.js';
import { eventsArea } from './events/index.js';
import { webhooksArea } from './webhooks/index.js';
import { collectLifecycle } from './lifecycle.js';

export const areas = [
  usersArea,
  organizationsArea,
  membersArea,
  teamsArea,
  invitesArea,
  samlArea,
  collectionsArea,
  spacesArea,
  permissionsArea,
  contentArea,
  changeRequestsArea,
  importArea,
  pdfArea,
  commentsArea,
  sitesArea,
  openAPISpecsArea,
  translationsArea,
  customFieldsArea,
  searchArea,
  linksArea,
  eventsArea,
  webhooksArea,
] as const;

/**
 * Tables that belong to the server rather than to an area: no organization's data, nothing to transfer.
 * Every other table of the database belongs to exactly one area (with its fate: areas/area.ts).
 */
export const SERVER_TABLES = {
  rateLimits: 'http/rate-limit-store.ts: request counters by key, expiring',
  serverKeys: 'keys.ts: the server’s signing and encryption keys',
} as const satisfies Partial<Record<TableName, string>>;

type KeysOfEach<T> = T extends unknown ? keyof T : never;
type DeclaredTables = KeysOfEach<(typeof areas)[number]['tables']> | keyof typeof SERVER_TABLES;
/**
 * `tsc` fails here, naming the table, while a table of the database (src/db/types.generated.ts) belongs
 * to no area: add it to the `tables` of the area that owns it, with its fate (areas/area.ts TableFate).
 * @public (a check for tsc: nothing imports it)
 */
export const everyTableDeclared: [Exclude<TableName, DeclaredTables>] extends [never]
  ? true
  : `Declare the table ${Exclude<TableName, DeclaredTables>} in the \`tables\` of the area that owns it (areas/<area>/index.ts), with its fate: { stays: why } or { transfer, duplicate } (areas/area.ts TableFate)` = true;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type AllHandlers = UnionToIntersection<(typeof areas)[number]['handlers']>;

/** One handler per operation of the spec; `tsc` fails here when an operation has none. */
export const handlers: HandlerMap = Object.assign({}, ...areas.map((area) => area.handlers)) as AllHandlers;

export const lifecycle = collectLifecycle(areas as readonly Area[]);

/** The access rules operations may name: the core ones and the areas'. */
export const accessRules = Object.assign({}, coreRules, ...areas.map((area) => area.rules ?? {})) as AccessRuleRegistry;

// The permissions objects are decided by the same rules (access/permissions.ts).
decidePermissionsWith(accessRules);

/** Constraint violations that mean a concurrent change (answered 409), named by the areas owning the tables. */
export const knownConflicts = Object.assign({}, ...areas.map((area) => area.conflicts ?? {})) as Readonly<Record<string, string>>;

/** How scopes owned by areas are found (a change request by id or number). */
export const scopeLookups = Object.assign({}, ...areas.map((area) => area.scopeLookups ?? {})) as ScopeLookups;

export function jobWorkers(context: Omit<AppContext, 'jobs'>): JobWorker[] {
  return (areas as readonly Area[]).flatMap((area) => area.jobs?.(context) ?? []);
}

/** The areas' routes mounted at `mount` (app.ts places each mount point in the request path). */
export function areaRoutes(context: AppContext, mount: keyof AreaRoutes): RequestHandler[] {
  return (areas as readonly Area[]).flatMap((area) => area.routes?.[mount]?.(context) ?? []);
}
