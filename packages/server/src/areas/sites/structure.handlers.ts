// A site's structure: sections, section groups and site spaces (lists in the site's order, changes,
// moves, deletes).
import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { keysetPage } from '../../db/pagination.js';
import { notFound } from '../../errors.js';
import type { AreaHandlers } from '../../http/handler.js';
import type { SiteRow } from './sites.repository.js';
import { toApiSiteSectionGroup, toApiSiteSpace } from './sites.mapper.js';
import * as structure from './structure.repository.js';
import * as changes from './structure.service.js';
import { requireSite } from './structure.service.js';
import { mapSiteSpaces, sectionsWithSiteSpaces, structureContext, viewerOf } from './views.js';
import { siteChange } from './site-events.js';

type Read = { app: AppContext; caller: Caller; organizationId: string; siteId: string };

async function sectionView({ app, caller, organizationId, siteId }: Read, sectionId: string) {
  const site = await requireSite(app.db, organizationId, siteId);
  const section = await structure.sectionsQuery(app.db, organizationId, siteId).where('id', '=', sectionId).executeTakeFirst();
  if (!section) throw notFound('Site section');
  const [mapped] = await sectionsWithSiteSpaces(app, await viewerOf(app, caller, organizationId), site, [section], undefined);
  return mapped!;
}

/** Groups with their sections (each with its site spaces). */
async function groupViews(app: AppContext, caller: Caller, site: SiteRow, groups: structure.GroupRow[]) {
  const ids = new Set(groups.map((group) => group.id));
  const sections = (await structure.sectionsInOrder(app.db, site.organizationId, site.id)).filter((section) => section.groupId && ids.has(section.groupId));
  const mapped = await sectionsWithSiteSpaces(app, await viewerOf(app, caller, site.organizationId), site, sections, undefined);
  return groups.map((group) => toApiSiteSectionGroup(group, mapped.filter((section) => section.sectionGroup === group.id)));
}

async function groupView({ app, caller, organizationId, siteId }: Read, groupId: string) {
  const site = await requireSite(app.db, organizationId, siteId);
  const group = await structure.findGroup(app.db, organizationId, siteId, groupId);
  if (!group) throw notFound('Site section group');
  return (await groupViews(app, caller, site, [group]))[0]!;
}

async function siteSpaceView({ app, caller, organizationId, siteId }: Read, siteSpaceId: string) {
  const site = await requireSite(app.db, organizationId, siteId);
  const row = (await structure.siteSpacesInOrder(app.db, organizationId, siteId)).find((candidate) => candidate.id === siteSpaceId);
  if (!row) throw notFound('Site space');
  const context = await structureContext(app, await viewerOf(app, caller, organizationId), site, [row.spaceId], await structure.sectionPathsById(app.db, organizationId, siteId), undefined);
  return toApiSiteSpace(row, row.spaceTitle, context);
}

const read = (app: AppContext, caller: Caller, organizationId: string, siteId: string): Read => ({ app, caller, organizationId, siteId });

export const structureHandlers = {
  // ---- Sections ----

  async listSiteSections({ caller, access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const page = await keysetPage(app.db, structure.sectionsQuery(app.db, site.organizationId, site.id), {
      keys: structure.siteOrderKeys('sec'),
      request: query,
      list: { operation: 'listSiteSections', within: `${site.organizationId}/${site.id}` },
      cursors: app.cursors,
    });
    const items = await sectionsWithSiteSpaces(app, await viewerOf(app, caller, site.organizationId), site, page.items, query.shareKey);
    return { status: 200, body: { ...page, items } };
  },

  async addSiteSection({ caller, access, params, body, app }) {
    const sectionId = await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.addSection(db, access.organization.id, params.siteId, access.readableSpaces.get(body.spaceId)!, body.title));
    return { status: 201, body: await sectionView(read(app, caller, access.organization.id, params.siteId), sectionId) };
  },

  async updateSiteSection({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.updateSection(db, access.organization.id, params.siteId, params.siteSectionId, body));
    return { status: 200, body: await sectionView(read(app, caller, access.organization.id, params.siteId), params.siteSectionId) };
  },

  async deleteSiteSection({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.deleteSection(db, access.organization.id, params.siteId, params.siteSectionId));
    return { status: 205 };
  },

  async moveSiteSection({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.moveSection(db, access.organization.id, params.siteId, params.siteSectionId, body.position));
    return { status: 200, body: await sectionView(read(app, caller, access.organization.id, params.siteId), params.siteSectionId) };
  },

  // ---- Section groups ----

  async listSiteSectionGroups({ caller, access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const page = await keysetPage(app.db, structure.groupsQuery(app.db, site.organizationId, site.id), {
      keys: [
        { column: 'g.position', direction: 'asc', value: (row) => row.position },
        { column: 'g.id', direction: 'asc', value: (row) => row.id },
      ],
      request: query,
      list: { operation: 'listSiteSectionGroups', within: `${site.organizationId}/${site.id}` },
      cursors: app.cursors,
    });
    return { status: 200, body: { ...page, items: await groupViews(app, caller, site, page.items) } };
  },

  async createSiteSectionGroup({ caller, access, params, body, app }) {
    const groupId = await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.createGroup(db, access.organization.id, params.siteId, body));
    return { status: 201, body: await groupView(read(app, caller, access.organization.id, params.siteId), groupId) };
  },

  async updateSiteSectionGroup({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.updateGroup(db, access.organization.id, params.siteId, params.siteSectionGroupId, body));
    return { status: 200, body: await groupView(read(app, caller, access.organization.id, params.siteId), params.siteSectionGroupId) };
  },

  async deleteSiteSectionGroup({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.deleteGroup(db, access.organization.id, params.siteId, params.siteSectionGroupId));
    return { status: 205 };
  },

  async addSiteSectionToGroup({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.addSectionToGroup(db, access.organization.id, params.siteId, params.siteSectionGroupId, body.sectionId));
    return { status: 201, body: await groupView(read(app, caller, access.organization.id, params.siteId), params.siteSectionGroupId) };
  },

  async removeSiteSectionFromGroup({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.removeSectionFromGroup(db, access.organization.id, params.siteId, params.siteSectionGroupId, params.siteSectionId));
    return { status: 205 };
  },

  async moveSiteSectionGroup({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.moveGroup(db, access.organization.id, params.siteId, params.siteSectionGroupId, body.position));
    return { status: 200, body: await groupView(read(app, caller, access.organization.id, params.siteId), params.siteSectionGroupId) };
  },

  // ---- Site spaces ----

  async listSiteSpaces({ caller, access, params, query, app }) {
    const site = await requireSite(app.db, access.organization.id, params.siteId);
    const page = await keysetPage(app.db, structure.siteSpacesQuery(app.db, site.organizationId, site.id, { default: query.default }), {
      keys: structure.siteSpaceOrderKeys(),
      request: query,
      list: { operation: 'listSiteSpaces', within: `${site.organizationId}/${site.id}`, filters: [query.default ?? null] },
      cursors: app.cursors,
    });
    const paths = await structure.sectionPathsById(app.db, site.organizationId, site.id);
    const context = await structureContext(app, await viewerOf(app, caller, site.organizationId), site, page.items.map((row) => row.spaceId), paths, query.shareKey);
    return { status: 200, body: { ...page, items: mapSiteSpaces(page.items, context) } };
  },

  async addSiteSpace({ caller, access, params, body, app }) {
    const siteSpaceId = await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.addSiteSpace(db, access.organization.id, params.siteId, access.readableSpaces.get(body.spaceId)!, body.sectionId));
    return { status: 201, body: await siteSpaceView(read(app, caller, access.organization.id, params.siteId), siteSpaceId) };
  },

  async updateSiteSpace({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.updateSiteSpace(db, access.organization.id, params.siteId, params.siteSpaceId, body));
    return { status: 200, body: await siteSpaceView(read(app, caller, access.organization.id, params.siteId), params.siteSpaceId) };
  },

  async deleteSiteSpace({ caller, access, params, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.deleteSiteSpace(db, access.organization.id, params.siteId, params.siteSpaceId));
    return { status: 205 };
  },

  async moveSiteSpace({ caller, access, params, body, app }) {
    await siteChange(app, caller, access.organization.id, params.siteId, (db) => changes.moveSiteSpace(db, access.organization.id, params.siteId, params.siteSpaceId, body.position));
    return { status: 200, body: await siteSpaceView(read(app, caller, access.organization.id, params.siteId), params.siteSpaceId) };
  },
} satisfies AreaHandlers;
