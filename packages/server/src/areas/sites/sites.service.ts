// Site-level changes: creation (with its first site spaces, or a new space), settings, addresses,
// publication, deletion, the adaptive schema, customization and the audience's credentials. Each runs
// in one transaction under the organization's sites lock.
import type { components } from '@content-workspace/contract';
import type { Updateable } from 'kysely';
import { inTransaction, type Executor } from '../../db/database.js';
import { sql } from 'kysely';
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import type { SitesTable } from '../../db/schema.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { applySpaceChanges } from '../content/index.js';
import { createSpace, toApiSpace } from '../spaces/index.js';
import { checkAdaptiveSchema } from './adaptive-schema.js';
import { changeHostname } from './hostnames.service.js';
import { hashShareKey } from '../../publication/share-key.js';
import { newShareKey, newVisitorAuthSecret } from './audience.js';
import {
  countShareLinks,
  deleteShareLink,
  deleteSite,
  findSite,
  insertShareLink,
  insertSite,
  lockSites,
  pathAddress,
  refreshPublishedFlags,
  replaceSiteAddress,
  spaceIdsOfSite,
  updateSite,
  type ShareLinkRow,
  type SiteRow,
} from './sites.repository.js';
import * as structure from './structure.repository.js';
import { changeSite, placeSiteSpace, requireDeclaredClaims } from './structure.service.js';
import { actorOf, recordEvent } from '../events/index.js';
import { siteData } from './site-events.js';

type Schemas = components['schemas'];

export const MAX_SHARE_LINKS = 100;
const UNTITLED = 'Untitled site';

const SAMPLE_PAGE = `# Welcome

This space was created with its site. Write your content here, then publish the site.`;

/** A new space for a new site (`spaces: sample | empty`), made like any space (and recorded), the caller its admin. */
async function newSiteSpace(app: AppContext, caller: Caller, organizationId: string, title: string, kind: 'sample' | 'empty'): Promise<SpaceRow> {
  const actor = actorOf(caller, app.urls);
  const space = await inTransaction(app.db, async (trx) => {
    const created = await createSpace(trx, { organizationId, creatorId: caller.user.id, parentId: null, body: { title: title.slice(0, 50) } });
    await recordEvent(trx, { type: 'space.created', organizationId, spaceId: created.id, actor, data: { object: toApiSpace(created, 'admin', app.urls) } });
    return created;
  });
  if (kind === 'empty') return space;
  return (await applySpaceChanges(app, space, caller.user.id, [{ type: 'insert_page', title: 'Welcome', slug: 'welcome', markdown: SAMPLE_PAGE }], { actor })).space;
}

/**
 * Creates a site with the given spaces at its root (checked readable by the `space-readable` rule),
 * or a new space. A new space is made first, in its own transaction (the space service owns it).
 */
export async function createSite(
  app: AppContext,
  caller: Caller,
  organizationId: string,
  body: Schemas['CreateSiteRequest'],
  readable: ReadonlyMap<string, SpaceRow>,
): Promise<string> {
  const title = body.title ?? UNTITLED;
  const spaces =
    typeof body.spaces === 'string' ? [await newSiteSpace(app, caller, organizationId, title, body.spaces)] : (body.spaces ?? []).map((id) => readable.get(id)!);
  return inTransaction(app.db, async (trx) => {
    await lockSites(trx, organizationId);
    const id = newId();
    await insertSite(trx, { organizationId, id, title, type: body.type ?? 'basic', visibility: body.visibility ?? 'public', createdBy: caller.user.id });
    await replaceSiteAddress(trx, organizationId, id, null, pathAddress(id));
    for (const space of spaces) await placeSiteSpace(trx, { organizationId, id }, null, space);
    const site = (await findSite(trx, organizationId, id))!;
    await recordEvent(trx, { type: 'site.created', organizationId, actor: actorOf(caller, app.urls), data: siteData(site, app) });
    return id;
  });
}

/** Moves one of the site's addresses; 409 when another site holds the new one. */
async function claimAddress(trx: Executor, site: SiteRow, previous: string | null, next: string | null, taken: string): Promise<void> {
  try {
    await replaceSiteAddress(trx, site.organizationId, site.id, previous, next);
  } catch (error) {
    if (isUniqueViolation(error, 'site_addresses_pkey')) throw conflict(taken);
    throw error;
  }
}

/** PATCH: settings, addresses (basenames unique across the server; hostnames claimed), adaptive content, defaults. */
export async function patchSite(app: AppContext, organizationId: string, siteId: string, body: Schemas['UpdateSiteRequest']): Promise<void> {
  await changeSite(app.db, organizationId, siteId, async (trx, site) => {
    const patch: Updateable<SitesTable> = {};
    if (body.title !== undefined) patch.title = body.title;
    if (body.visibility !== undefined) patch.visibility = body.visibility;
    if (body.proxy !== undefined) patch.proxy = body.proxy;
    if (body.adaptiveContent !== undefined) {
      if (body.adaptiveContent.enabled && !site.adaptiveContentEnabled) await requireDeclaredClaims(trx, site, (site.adaptiveSchema as never) ?? null);
      patch.adaptiveContentEnabled = body.adaptiveContent.enabled;
    }
    if (body.basename !== undefined) {
      await claimAddress(trx, site, site.basename && pathAddress(site.basename), body.basename && pathAddress(body.basename), 'This basename is taken (or is the id of a site)');
      patch.basename = body.basename;
    }
    if (body.hostname !== undefined) Object.assign(patch, await changeHostname(trx, app.config, site, body.hostname));
    if (body.defaultSiteSection !== undefined) {
      if (!(await structure.findSection(trx, organizationId, siteId, body.defaultSiteSection))) throw invalidField('/body/defaultSiteSection', 'is not a section of this site');
      await structure.setDefaultSection(trx, organizationId, siteId, body.defaultSiteSection);
    }
    if (body.defaultSiteSpace !== undefined) {
      const target = await structure.findSiteSpace(trx, organizationId, siteId, body.defaultSiteSpace);
      if (!target) throw invalidField('/body/defaultSiteSpace', 'is not a site space of this site');
      await structure.setDefaultSiteSpace(trx, organizationId, siteId, target.sectionId, target.id);
    }
    await updateSite(trx, organizationId, siteId, patch);
  });
}

/** Moves `published`; the spaces' published flags follow. */
export async function setPublished(app: AppContext, organizationId: string, siteId: string, published: boolean): Promise<void> {
  await changeSite(app.db, organizationId, siteId, async (trx, site) => {
    if (site.published === published) return;
    await updateSite(trx, organizationId, siteId, { published });
    await refreshPublishedFlags(trx, organizationId, await spaceIdsOfSite(trx, organizationId, siteId));
  });
}

/** Deletes the site with its structure and credentials; an organization's `defaultContent` naming it is cleared (foreign key). */
export async function removeSite(app: AppContext, organizationId: string, siteId: string): Promise<void> {
  await changeSite(app.db, organizationId, siteId, async (trx) => {
    const spaceIds = await spaceIdsOfSite(trx, organizationId, siteId);
    await deleteSite(trx, organizationId, siteId);
    await refreshPublishedFlags(trx, organizationId, spaceIds);
  });
}

export async function putAdaptiveSchema(app: AppContext, organizationId: string, siteId: string, document: unknown): Promise<void> {
  const checked = checkAdaptiveSchema(document, '/body/jsonSchema');
  if (!checked.ok) throw invalidField(checked.path, checked.message);
  await changeSite(app.db, organizationId, siteId, async (trx, site) => {
    if (site.adaptiveContentEnabled) await requireDeclaredClaims(trx, site, checked.schema);
    await updateSite(trx, organizationId, siteId, { adaptiveSchema: JSON.stringify(checked.schema), adaptiveSchemaUpdatedAt: sql<Date>`now()` as never });
  });
}

export async function putCustomization(app: AppContext, organizationId: string, siteId: string, input: Schemas['SiteCustomizationInput']): Promise<void> {
  await changeSite(app.db, organizationId, siteId, (trx) => updateSite(trx, organizationId, siteId, { customization: JSON.stringify(input) }));
}

/** A new share link and its key (returned once; the server keeps its SHA-256). */
export async function createShareLink(app: AppContext, caller: Caller, organizationId: string, siteId: string, label: string): Promise<{ link: ShareLinkRow; key: string }> {
  return changeSite(app.db, organizationId, siteId, async (trx) => {
    if ((await countShareLinks(trx, organizationId, siteId)) >= MAX_SHARE_LINKS) throw conflict(`A site holds at most ${MAX_SHARE_LINKS} share links`);
    const key = newShareKey();
    const link = await insertShareLink(trx, { organizationId, siteId, id: newId(), label, keyHash: hashShareKey(key), createdBy: caller.user.id });
    return { link, key };
  });
}

export async function revokeShareLink(app: AppContext, organizationId: string, siteId: string, shareLinkId: string): Promise<void> {
  await changeSite(app.db, organizationId, siteId, async (trx) => {
    if (!(await deleteShareLink(trx, organizationId, siteId, shareLinkId))) throw notFound('Share link');
  });
}

/** Sets the fallback address; generates the secret the first time. Returns the secret when it was generated. */
export async function putVisitorAuth(app: AppContext, organizationId: string, siteId: string, fallbackUrl: string | null): Promise<string | undefined> {
  return changeSite(app.db, organizationId, siteId, async (trx, site) => {
    const secret = site.visitorAuthSecret ? undefined : newVisitorAuthSecret();
    await updateSite(trx, organizationId, siteId, {
      visitorAuthFallbackUrl: fallbackUrl,
      ...(secret ? { visitorAuthSecret: secret, visitorAuthSecretCreatedAt: sql<Date>`now()` as never } : {}),
    });
    return secret;
  });
}

export async function rotateVisitorAuthSecret(app: AppContext, organizationId: string, siteId: string): Promise<string> {
  return changeSite(app.db, organizationId, siteId, async (trx) => {
    const secret = newVisitorAuthSecret();
    await updateSite(trx, organizationId, siteId, { visitorAuthSecret: secret, visitorAuthSecretCreatedAt: sql<Date>`now()` as never });
    return secret;
  });
}
