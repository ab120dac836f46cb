// Changes of a site's structure, each in one transaction under the organization's sites lock
// (sites.repository.ts lockSites): sections, section groups, site spaces, their order and defaults.
// The rules: a site's root holds either sections or site spaces; the first section is the site's
// default and the first site space of a parent is its default; removing a default makes the next
// sibling (else the previous) the default; paths are unique among siblings (409).
import type { components } from '@content-workspace/contract';
import { isUniqueViolation } from '../../db/errors.js';
import { inTransaction, type Database, type Executor } from '../../db/database.js';
import type { SpaceRow } from '../../access/standing.repository.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { freeSlug, slugify } from '../../content/slugs.js';
import { declaresClaim, type AdaptiveSchemaDocument } from './adaptive-schema.js';
import { parseCondition, referencedClaims } from './condition.js';
import { groupSections, positionAtEnd, positionBeside, positionsAfter, siteSpaceSiblings, topLevel, type Siblings } from './site-positions.js';
import { findSite, lockSites, refreshPublishedFlags, type SiteRow } from './sites.repository.js';
import * as structure from './structure.repository.js';

type Schemas = components['schemas'];

export const SITE_LIMITS = { sections: 100, groups: 50, siteSpaces: 500 } as const;

/** The site, read under the lock (404 when the organization has no such site). */
export async function requireSite(db: Executor, organizationId: string, siteId: string): Promise<SiteRow> {
  const site = await findSite(db, organizationId, siteId);
  if (!site) throw notFound('Site');
  return site;
}

/** Runs `change` in one transaction holding the organization's sites lock, with the site read inside it. */
export async function changeSite<T>(db: Database, organizationId: string, siteId: string, change: (trx: Executor, site: SiteRow) => Promise<T>): Promise<T> {
  // In the caller's transaction when it has one (the site's event is recorded there: site-events.ts).
  return inTransaction(db, async (trx) => {
    await lockSites(trx, organizationId);
    return change(trx, await requireSite(trx, organizationId, siteId));
  });
}

/** A condition as written, checked: syntax (with the position), and the claims the adaptive schema declares. */
export function checkCondition(site: SiteRow, text: string, path: string): string {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw invalidField(path, `${parsed.message} (at position ${parsed.position})`);
  if (site.adaptiveContentEnabled) {
    const undeclared = undeclaredClaim(site.adaptiveSchema as AdaptiveSchemaDocument | null, text);
    if (undeclared) throw invalidField(path, `uses ${undeclared}, which the site's adaptive schema does not declare`);
  }
  return text;
}

/** The first claim a condition reads that `schema` does not declare (`visitor.claims.x`), if any. */
export function undeclaredClaim(schema: AdaptiveSchemaDocument | null, condition: string): string | undefined {
  const parsed = parseCondition(condition);
  if (!parsed.ok) return undefined;
  const declared = schema ?? ({ type: 'object', properties: {} } as unknown as AdaptiveSchemaDocument);
  const path = referencedClaims(parsed.ast).find((claim) => !declaresClaim(declared, claim));
  return path && ['visitor.claims', ...path.map(String)].join('.');
}

/** 409 when a condition of the site reads a claim `schema` does not declare (enabling adaptive content, replacing the schema). */
export async function requireDeclaredClaims(db: Executor, site: SiteRow, schema: AdaptiveSchemaDocument | null): Promise<void> {
  for (const { kind, id, condition } of await structure.conditionsOfSite(db, site.organizationId, site.id)) {
    const undeclared = undeclaredClaim(schema, condition);
    if (undeclared) throw conflict(`The condition of the ${kind} ${id} uses ${undeclared}, which the adaptive schema does not declare`);
  }
}

function onConflict(error: unknown): never {
  if (isUniqueViolation(error, 'site_sections_path_key')) throw conflict('Another section of the site has this path');
  if (isUniqueViolation(error, 'site_spaces_path_key')) throw conflict('Another site space of this section has this path');
  if (isUniqueViolation(error, 'site_spaces_space_key')) throw conflict('The space is already in this section');
  throw error;
}

async function guarded<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    onConflict(error);
  }
}

/** The position for `position` (exactly one of before/after, naming a sibling in `siblings`). */
async function positionFor<R>(trx: Executor, siblings: Siblings, position: { before?: R; after?: R }, referenceId: (reference: R) => string, movingId: string): Promise<string> {
  const side = position.before ? 'before' : 'after';
  const reference = position.before ?? position.after;
  if (!reference || (position.before && position.after)) throw invalidField('/body/position', 'must have exactly one of before and after');
  const id = referenceId(reference);
  if (id === movingId) throw invalidField(`/body/position/${side}`, 'cannot be the item being moved');
  const placed = await positionBeside(trx, siblings, id, side, movingId);
  if (placed === undefined) throw invalidField(`/body/position/${side}`, 'must name a sibling at the same level of this site');
  return placed;
}

// ---- Site spaces ----

/**
 * Adds a site space of `space` last under `sectionId` (null: the root), the default of its siblings
 * when it is the first; its path comes from the space's title, free among the siblings.
 */
export async function placeSiteSpace(trx: Executor, site: Pick<SiteRow, 'organizationId' | 'id'>, sectionId: string | null, space: Pick<SpaceRow, 'id' | 'title'>): Promise<string> {
  if ((await structure.countSiteSpaces(trx, site.organizationId, site.id)) >= SITE_LIMITS.siteSpaces) {
    throw conflict(`A site holds at most ${SITE_LIMITS.siteSpaces} site spaces`);
  }
  const siblings = await structure.siblingSiteSpaces(trx, site.organizationId, site.id, sectionId);
  if (siblings.some((sibling) => sibling.spaceId === space.id)) throw conflict('The space is already in this section');
  const id = newId();
  await guarded(
    structure.insertSiteSpace(trx, {
      organizationId: site.organizationId,
      siteId: site.id,
      id,
      spaceId: space.id,
      sectionId,
      path: freeSlug(slugify(space.title), new Set(siblings.map((sibling) => sibling.path))),
      isDefault: siblings.length === 0,
      position: await positionAtEnd(trx, siteSpaceSiblings(site.organizationId, site.id, sectionId)),
    }),
  );
  return id;
}

export async function addSiteSpace(db: Database, organizationId: string, siteId: string, space: SpaceRow, sectionId: string | undefined): Promise<string> {
  return changeSite(db, organizationId, siteId, async (trx, site) => {
    let parent: string | null;
    if (sectionId !== undefined) {
      if (!(await structure.findSection(trx, organizationId, siteId, sectionId))) throw invalidField('/body/sectionId', 'is not a section of this site');
      parent = sectionId;
    } else {
      const sections = await structure.sectionsInOrder(trx, organizationId, siteId);
      parent = sections.find((section) => section.isDefault)?.id ?? sections[0]?.id ?? null;
    }
    const id = await placeSiteSpace(trx, site, parent, space);
    if (site.published) await refreshPublishedFlags(trx, organizationId, [space.id]);
    return id;
  });
}

async function requireSiteSpace(trx: Executor, site: SiteRow, siteSpaceId: string) {
  const row = await structure.findSiteSpace(trx, site.organizationId, site.id, siteSpaceId);
  if (!row) throw notFound('Site space');
  return row;
}

export async function updateSiteSpace(db: Database, organizationId: string, siteId: string, siteSpaceId: string, body: Schemas['UpdateSiteSpaceRequest']): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    await requireSiteSpace(trx, site, siteSpaceId);
    await guarded(
      structure.updateSiteSpace(trx, organizationId, siteSpaceId, {
        ...(body.path !== undefined ? { path: body.path } : {}),
        ...(body.condition !== undefined ? { condition: body.condition === null ? null : checkCondition(site, body.condition, '/body/condition') } : {}),
      }),
    );
  });
}

/** Removes a site space; when it was its siblings' default, the next one (else the previous) becomes it. */
export async function deleteSiteSpace(db: Database, organizationId: string, siteId: string, siteSpaceId: string): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    const row = await requireSiteSpace(trx, site, siteSpaceId);
    const siblings = await structure.siblingSiteSpaces(trx, organizationId, siteId, row.sectionId);
    const index = siblings.findIndex((sibling) => sibling.id === siteSpaceId);
    await structure.deleteSiteSpaceRow(trx, organizationId, siteSpaceId);
    const next = siblings[index + 1] ?? siblings[index - 1];
    if (row.isDefault && next) await structure.setDefaultSiteSpace(trx, organizationId, siteId, row.sectionId, next.id);
    await refreshPublishedFlags(trx, organizationId, [row.spaceId]);
  });
}

export async function moveSiteSpace(db: Database, organizationId: string, siteId: string, siteSpaceId: string, position: Schemas['MoveSiteSpaceRequest']['position']): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    const row = await requireSiteSpace(trx, site, siteSpaceId);
    const placed = await positionFor(trx, siteSpaceSiblings(organizationId, siteId, row.sectionId), position, (reference) => reference.siteSpace, siteSpaceId);
    await structure.updateSiteSpace(trx, organizationId, siteSpaceId, { position: placed });
  });
}

// ---- Sections ----

async function requireSection(trx: Executor, site: SiteRow, sectionId: string) {
  const row = await structure.findSection(trx, site.organizationId, site.id, sectionId);
  if (!row) throw notFound('Site section');
  return row;
}

/** A new top-level section, last, its path made from its title and free in the site; the site's default when it is the first. */
async function insertTopLevelSection(trx: Executor, site: SiteRow, title: string): Promise<string> {
  const id = newId();
  const taken = await structure.sectionPaths(trx, site.organizationId, site.id);
  await structure.insertSection(trx, {
    organizationId: site.organizationId,
    siteId: site.id,
    id,
    title,
    path: freeSlug(slugify(title), taken),
    isDefault: taken.size === 0,
    position: await positionAtEnd(trx, topLevel(site.organizationId, site.id)),
  });
  return id;
}

/**
 * A new section holding one site space of `space`. A site whose root holds site spaces first gets a
 * section for them (titled after the space of the root's default), which stays the default.
 */
export async function addSection(db: Database, organizationId: string, siteId: string, space: SpaceRow, title: string | undefined): Promise<string> {
  return changeSite(db, organizationId, siteId, async (trx, site) => {
    if ((await structure.countSections(trx, organizationId, siteId)) >= SITE_LIMITS.sections) throw conflict(`A site holds at most ${SITE_LIMITS.sections} sections`);
    if ((await structure.siblingSiteSpaces(trx, organizationId, siteId, null)).length > 0) {
      const root = (await structure.siteSpacesInOrder(trx, organizationId, siteId)).filter((row) => row.sectionId === null);
      const first = root.find((row) => row.effectiveDefault) ?? root[0];
      const wrapper = await insertTopLevelSection(trx, site, first?.spaceTitle || site.title);
      await structure.moveRootSiteSpacesInto(trx, organizationId, siteId, wrapper);
    }
    const id = await insertTopLevelSection(trx, site, title ?? (space.title || 'Section'));
    await placeSiteSpace(trx, site, id, space);
    if (site.published) await refreshPublishedFlags(trx, organizationId, [space.id]);
    return id;
  });
}

export async function updateSection(db: Database, organizationId: string, siteId: string, sectionId: string, body: Schemas['UpdateSiteSectionRequest']): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    await requireSection(trx, site, sectionId);
    if (body.defaultSiteSpace !== undefined) {
      const target = await structure.findSiteSpace(trx, organizationId, siteId, body.defaultSiteSpace);
      if (target?.sectionId !== sectionId) throw invalidField('/body/defaultSiteSpace', 'is not a site space of this section');
      await structure.setDefaultSiteSpace(trx, organizationId, siteId, sectionId, target.id);
    }
    await guarded(
      structure.updateSection(trx, organizationId, sectionId, {
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.path !== undefined ? { path: body.path } : {}),
        ...(body.icon !== undefined ? { icon: body.icon } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.condition !== undefined ? { condition: body.condition === null ? null : checkCondition(site, body.condition, '/body/condition') } : {}),
      }),
    );
  });
}

/** Deletes a section and its site spaces; the next section in the site's order (else the previous) becomes the default. */
export async function deleteSection(db: Database, organizationId: string, siteId: string, sectionId: string): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx) => {
    const sections = await structure.sectionsInOrder(trx, organizationId, siteId);
    const index = sections.findIndex((section) => section.id === sectionId);
    if (index < 0) throw notFound('Site section');
    const spaceIds = (await structure.siblingSiteSpaces(trx, organizationId, siteId, sectionId)).map((row) => row.spaceId);
    await structure.deleteSection(trx, organizationId, sectionId);
    if (sections[index]!.isDefault) {
      const next = sections[index + 1] ?? sections[index - 1];
      if (next) await structure.setDefaultSection(trx, organizationId, siteId, next.id);
    }
    await refreshPublishedFlags(trx, organizationId, spaceIds);
  });
}

/** The siblings of a section or a group: its group's sections, or the site's top level. */
const siblingsOf = (site: SiteRow, groupId: string | null) => (groupId ? groupSections(site.organizationId, site.id, groupId) : topLevel(site.organizationId, site.id));

const sectionReference = (reference: { siteSection?: string; id?: string }) => (reference.siteSection ?? reference.id)!;

export async function moveSection(db: Database, organizationId: string, siteId: string, sectionId: string, position: Schemas['SiteSectionPosition']): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    const section = await requireSection(trx, site, sectionId);
    const placed = await positionFor(trx, siblingsOf(site, section.groupId), position, sectionReference, sectionId);
    await structure.updateSection(trx, organizationId, sectionId, { position: placed });
  });
}

// ---- Groups ----

async function requireGroup(trx: Executor, site: SiteRow, groupId: string) {
  const group = await structure.findGroup(trx, site.organizationId, site.id, groupId);
  if (!group) throw notFound('Site section group');
  return group;
}

/** Moves sections (in this order) to the end of a group. */
async function moveSectionsIntoGroup(trx: Executor, site: SiteRow, groupId: string, sectionIds: readonly string[], path: (index: number) => string): Promise<void> {
  for (const [index, sectionId] of sectionIds.entries()) {
    if (!(await structure.findSection(trx, site.organizationId, site.id, sectionId))) throw invalidField(path(index), 'is not a section of this site');
    const position = await positionAtEnd(trx, groupSections(site.organizationId, site.id, groupId));
    await structure.updateSection(trx, site.organizationId, sectionId, { groupId, position });
  }
}

export async function createGroup(db: Database, organizationId: string, siteId: string, body: Schemas['CreateSiteSectionGroupRequest']): Promise<string> {
  return changeSite(db, organizationId, siteId, async (trx, site) => {
    if ((await structure.countGroups(trx, organizationId, siteId)) >= SITE_LIMITS.groups) throw conflict(`A site holds at most ${SITE_LIMITS.groups} section groups`);
    const id = newId();
    await structure.insertGroup(trx, {
      organizationId,
      siteId,
      id,
      title: body.title,
      icon: body.icon ?? null,
      position: await positionAtEnd(trx, topLevel(organizationId, siteId)),
    });
    await moveSectionsIntoGroup(trx, site, id, body.sections ?? [], (index) => `/body/sections/${index}`);
    return id;
  });
}

export async function updateGroup(db: Database, organizationId: string, siteId: string, groupId: string, body: Schemas['UpdateSiteSectionGroupRequest']): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    await requireGroup(trx, site, groupId);
    await structure.updateGroup(trx, organizationId, groupId, {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.icon !== undefined ? { icon: body.icon } : {}),
    });
  });
}

/** Deletes a group; its sections stay, at the top level where the group was, in their order. */
export async function deleteGroup(db: Database, organizationId: string, siteId: string, groupId: string): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    await requireGroup(trx, site, groupId);
    const members = (await structure.sectionsInOrder(trx, organizationId, siteId)).filter((section) => section.groupId === groupId);
    const positions = await positionsAfter(trx, topLevel(organizationId, siteId), groupId, members.length);
    for (const [index, section] of members.entries()) await structure.updateSection(trx, organizationId, section.id, { groupId: null, position: positions[index]! });
    await structure.deleteGroup(trx, organizationId, groupId);
  });
}

export async function addSectionToGroup(db: Database, organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    await requireGroup(trx, site, groupId);
    await moveSectionsIntoGroup(trx, site, groupId, [sectionId], () => '/body/sectionId');
  });
}

/** Takes a section out of its group, to the top level right after the group. */
export async function removeSectionFromGroup(db: Database, organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    await requireGroup(trx, site, groupId);
    const section = await requireSection(trx, site, sectionId);
    if (section.groupId !== groupId) throw notFound('Site section');
    const [position] = await positionsAfter(trx, topLevel(organizationId, siteId), groupId, 1);
    await structure.updateSection(trx, organizationId, sectionId, { groupId: null, position: position! });
  });
}

export async function moveGroup(db: Database, organizationId: string, siteId: string, groupId: string, position: Schemas['SiteSectionPosition']): Promise<void> {
  await changeSite(db, organizationId, siteId, async (trx, site) => {
    await requireGroup(trx, site, groupId);
    const placed = await positionFor(trx, topLevel(organizationId, siteId), position, sectionReference, groupId);
    await structure.updateGroup(trx, organizationId, groupId, { position: placed });
  });
}
