// A site's redirects: what may be stored. Each write runs in the site's change (structure.service.ts
// `changeSite`: the organization's sites lock, the site read inside it), so the limit holds under
// concurrent writes. A source is kept in one spelling (redirect-paths.ts); a target is a page of a space
// the site shows, or an explicit address outside the site — never back into the site, so no chain of
// redirects can loop (a page target always ends at a page, or at the 404 when the page is gone).
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { badRequest, conflict, invalidField, notFound, type ErrorIssue } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Schemas } from '../../schemas.js';
import type { Urls } from '../../urls.js';
import { canonicalSource } from './redirect-paths.js';
import { countRedirects, deleteRedirect, findRedirect, findRedirectBySource, insertRedirects, spacesOfSite, updateRedirect, type RedirectRow, type RedirectValues } from './redirects.repository.js';
import type { SiteRow } from './sites.repository.js';

export const MAX_REDIRECTS = 5_000;

type Target = Schemas['SiteRedirectTarget'];
type RedirectInput = Schemas['CreateSiteRedirectRequest'];
type Context = { urls: Urls; publicUrl: string };

const tooMany = () => conflict(`A site holds at most ${MAX_REDIRECTS} redirects`);

/** The source's canonical spelling, or a 400 naming `path`. */
export function requireSource(source: string, path: string): string {
  const result = canonicalSource(source);
  if ('problem' in result) throw invalidField(path, result.problem);
  if (result.path.length > 512) throw invalidField(path, 'is longer than 512 characters once percent-encoded');
  return result.path;
}

/** Why `url` may not be a redirect's target of `site` (undefined when it may). */
function urlProblem(context: Context, site: SiteRow, address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'is not an absolute address';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) address';
  if (url.username || url.password) return 'may not carry credentials';
  const host = url.hostname.toLowerCase();
  if (site.hostname && host === site.hostname.toLowerCase()) return "leads back into the site (its hostname): use a page target";
  const server = new URL(context.publicUrl);
  if (url.origin === server.origin) {
    const names = [site.id, ...(site.basename ? [site.basename] : [])];
    if (names.some((name) => url.pathname === `/s/${name}` || url.pathname.startsWith(`/s/${name}/`))) return 'leads back into the site: use a page target';
  }
  return undefined;
}

/** Checks every input's target against the site (one query for the page targets' spaces); the issues found. */
async function targetIssues(db: Executor, context: Context, site: SiteRow, inputs: ReadonlyArray<{ target: Target; path: string }>): Promise<ErrorIssue[]> {
  const spaces = await spacesOfSite(
    db,
    site.organizationId,
    site.id,
    [...new Set(inputs.flatMap(({ target }) => (target.kind === 'page' ? [target.space] : [])))],
  );
  return inputs.flatMap(({ target, path }): ErrorIssue[] => {
    if (target.kind === 'page') return spaces.has(target.space) ? [] : [{ path: `${path}/space`, message: 'is not a space of this site' }];
    const problem = urlProblem(context, site, target.url);
    return problem ? [{ path: `${path}/url`, message: problem }] : [];
  });
}

function throwIssues(issues: ErrorIssue[]): void {
  if (issues.length === 0) return;
  const first = issues[0]!;
  throw issues.length === 1 ? invalidField(first.path, first.message) : badRequest(`${first.path}: ${first.message} (and ${issues.length - 1} more)`, issues.slice(0, 50));
}

const targetColumns = (target: Target): Pick<RedirectValues, 'targetKind' | 'targetSpaceId' | 'targetPageId' | 'targetUrl'> =>
  target.kind === 'page'
    ? { targetKind: 'page', targetSpaceId: target.space, targetPageId: target.page, targetUrl: null }
    : { targetKind: 'url', targetSpaceId: null, targetPageId: null, targetUrl: target.url };

export async function createRedirect(db: Executor, context: Context, site: SiteRow, input: RedirectInput): Promise<RedirectRow> {
  const source = requireSource(input.source, '/body/source');
  throwIssues(await targetIssues(db, context, site, [{ target: input.target, path: '/body/target' }]));
  if (await findRedirectBySource(db, site.organizationId, site.id, source)) throw conflict(`The site already redirects ${source}`);
  if ((await countRedirects(db, site.organizationId, site.id)) >= MAX_REDIRECTS) throw tooMany();
  const [row] = await insertRedirects(db, [
    { organizationId: site.organizationId, siteId: site.id, id: newId(), source, permanent: input.permanent ?? true, ...targetColumns(input.target) },
  ]);
  return row!;
}

export async function changeRedirect(db: Executor, context: Context, site: SiteRow, redirectId: string, input: Schemas['UpdateSiteRedirectRequest']): Promise<RedirectRow> {
  const current = await findRedirect(db, site.organizationId, site.id, redirectId);
  if (!current) throw notFound('Redirect');
  const source = input.source === undefined ? undefined : requireSource(input.source, '/body/source');
  if (input.target) throwIssues(await targetIssues(db, context, site, [{ target: input.target, path: '/body/target' }]));
  if (source !== undefined && source !== current.source && (await findRedirectBySource(db, site.organizationId, site.id, source))) throw conflict(`The site already redirects ${source}`);
  const updated = await updateRedirect(db, site.organizationId, site.id, redirectId, {
    ...(source !== undefined ? { source } : {}),
    ...(input.permanent !== undefined ? { permanent: input.permanent } : {}),
    ...(input.target ? targetColumns(input.target) : {}),
  });
  return updated!;
}

export async function removeRedirect(db: Executor, site: SiteRow, redirectId: string): Promise<void> {
  if (!(await deleteRedirect(db, site.organizationId, site.id, redirectId))) throw notFound('Redirect');
}

/**
 * Creates or updates each of `inputs` by its source, all or none, in one statement: the answer in the
 * request's order, with how many were created and updated.
 */
export async function upsertRedirects(db: Executor, context: Context, site: SiteRow, inputs: readonly RedirectInput[]): Promise<{ rows: RedirectRow[]; created: number; updated: number }> {
  const issues: ErrorIssue[] = [];
  const sources = inputs.map((input, index) => {
    const result = canonicalSource(input.source);
    if ('problem' in result) issues.push({ path: `/body/redirects/${index}/source`, message: result.problem });
    else if (result.path.length > 512) issues.push({ path: `/body/redirects/${index}/source`, message: 'is longer than 512 characters once percent-encoded' });
    return 'path' in result ? result.path : '';
  });
  const firstIndex = new Map<string, number>();
  sources.forEach((source, index) => {
    if (!source) return;
    const earlier = firstIndex.get(source);
    if (earlier !== undefined) issues.push({ path: `/body/redirects/${index}/source`, message: `repeats the source of /body/redirects/${earlier} (${source})` });
    else firstIndex.set(source, index);
  });
  issues.push(...(await targetIssues(db, context, site, inputs.map((input, index) => ({ target: input.target, path: `/body/redirects/${index}/target` })))));
  throwIssues(issues);

  const rows = await db
    .insertInto('siteRedirects')
    .values(inputs.map((input, index) => ({ organizationId: site.organizationId, siteId: site.id, id: newId(), source: sources[index]!, permanent: input.permanent ?? true, ...targetColumns(input.target) })))
    .onConflict((oc) =>
      oc.columns(['organizationId', 'siteId', 'source']).doUpdateSet((eb) => ({
        permanent: eb.ref('excluded.permanent'),
        targetKind: eb.ref('excluded.targetKind'),
        targetSpaceId: eb.ref('excluded.targetSpaceId'),
        targetPageId: eb.ref('excluded.targetPageId'),
        targetUrl: eb.ref('excluded.targetUrl'),
        updatedAt: sql<Date>`now()`,
      })),
    )
    .returningAll()
    // A row the statement inserted has no xmax yet; an updated one has this transaction's.
    .returning(sql<boolean>`xmax = 0`.as('inserted'))
    .execute();
  const created = rows.filter((row) => row.inserted).length;
  // Counted after the write, in the same transaction under the sites lock: over the limit, none of it stays.
  if (created > 0 && (await countRedirects(db, site.organizationId, site.id)) > MAX_REDIRECTS) throw tooMany();
  const bySource = new Map(rows.map(({ inserted: _inserted, ...row }) => [row.source, row]));
  return { rows: sources.map((source) => bySource.get(source)!), created, updated: rows.length - created };
}
