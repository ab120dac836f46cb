// Every resource area of the server, registered once. The handler map, the lifecycle steps (transfer,
// purge, duplicate), the job workers, the access rules and the routes outside the API are built from
// this list; the order is the order transfer steps run in (collections before spaces, spaces before
// their content), and the order routes are mounted in.
import type { AccessRuleRegistry } from '../access/rules.js';
import type { ScopeLookups } from '../access/scopes.js';
import { coreRules } from '../access/rules.js';
import type { AppContext } from '../context.js';
import type { HandlerMap } from '../http/handler.js';
import type { JobWorker } from '../jobs/queue.js';
import type { RequestHandler } from 'express';
import type { Area, AreaRoutes } from './area.js';
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
] as const;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type AllHandlers = UnionToIntersection<(typeof areas)[number]['handlers']>;

/** One handler per operation of the spec; `tsc` fails here when an operation has none. */
export const handlers: HandlerMap = Object.assign({}, ...areas.map((area) => area.handlers)) as AllHandlers;

export const lifecycle = collectLifecycle(areas);

/** The access rules operations may name: the core ones and the areas'. */
export const accessRules = Object.assign({}, coreRules, ...areas.map((area) => area.rules ?? {})) as AccessRuleRegistry;

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
