// The permissions objects decided once per key (access/permissions.ts), with the registry's rules,
// against each boolean decided for the row itself (access/permitted.ts), and the guard that keeps a key
// honest. That each boolean equals its operation's outcome over HTTP is test/authz/permissions.test.ts's.
import { describe, expect, it } from 'vitest';
import { COLLECTION_PERMISSIONS, createPermissions, ORGANIZATION_PERMISSIONS, SPACE_PERMISSIONS, TEAM_PERMISSIONS } from '../access/permissions.js';
import { permitted, type PermissionSubject } from '../access/permitted.js';
import { ROLES, type Role } from '../access/roles.js';
import type { AccessRuleRegistry } from '../access/rules.js';
import { accessRules } from './index.js';

const ROLE_OR_NONE: Array<Role | null> = [...ROLES, null];
const EDIT_MODES = ['open', 'locked'] as const;

/** Each boolean of `sources` decided on its own for `subject`, as before objects were shared. */
function oneByOne(sources: Record<string, string | readonly [string, unknown]>, subject: PermissionSubject): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(sources).map(([name, source]) => {
      const [operationId, body] = typeof source === 'string' ? [source, undefined] : source;
      return [name, permitted(accessRules, operationId as never, { ...subject, body })];
    }),
  );
}

const spaceRow = (i: number, editMode: string) => ({ id: `space${i}`, title: `Space ${i}`, editMode }) as never;

describe('objects decided once per key', () => {
  it('a space: each role and edit mode, over rows that differ in every other field', () => {
    const objects = createPermissions(accessRules);
    for (const [i, role] of ROLE_OR_NONE.entries()) {
      for (const editMode of EDIT_MODES) {
        for (const row of [spaceRow(i, editMode), spaceRow(i + 100, editMode)]) {
          expect(objects.space(row, role), `${role} on a ${editMode} space`).toEqual(oneByOne(SPACE_PERMISSIONS, { access: { space: row, role: role! } }));
        }
      }
    }
    // Locked and open differ for an editor: the edit mode is part of the key.
    expect(objects.space(spaceRow(1, 'open'), 'edit').edit).toBe(true);
    expect(objects.space(spaceRow(2, 'locked'), 'edit').edit).toBe(false);
  });

  it('a collection, an organization, a team', () => {
    const objects = createPermissions(accessRules);
    for (const role of ROLE_OR_NONE) {
      const collection = { id: 'c', title: 'C' } as never;
      const { create, ...decided } = objects.collection(collection, role);
      expect(decided).toEqual(oneByOne(COLLECTION_PERMISSIONS, { access: { collection, role: role! } }));
      expect(create).toBe(decided.view && ['create', 'admin'].includes(role ?? ''));
      for (const sso of [false, true]) {
        for (const memberSso of [false, true]) {
          const standing = { organization: { id: 'o', sso } as never, membership: { role, sso: memberSso } as never };
          expect(objects.organization(standing)).toEqual(oneByOne(ORGANIZATION_PERMISSIONS, { access: { ...standing, role } as never }));
        }
      }
      for (const callerTeamRole of ['owner', 'member', null] as const) {
        const subject = { access: { organization: { sso: false }, membership: { role, sso: false }, role } as never, loaded: { callerTeamRole } };
        expect(objects.team(role, { callerTeamRole })).toEqual(oneByOne(TEAM_PERMISSIONS, subject));
      }
    }
    const nonMember = { organization: { id: 'o', sso: false } as never, membership: undefined };
    expect(objects.organization(nonMember)).toEqual(oneByOne(ORGANIZATION_PERMISSIONS, { access: { ...nonMember, role: undefined } as never }));
  });

  it('a shared object is frozen: no caller changes what another is answered', () => {
    const objects = createPermissions(accessRules);
    const first = objects.space(spaceRow(1, 'open'), 'read');
    expect(objects.space(spaceRow(2, 'open'), 'read')).toBe(first);
    expect(() => {
      (first as { view: boolean }).view = false;
    }).toThrow(TypeError);
  });

  it('a rule reading a row field the key leaves out throws instead of sharing a wrong answer', () => {
    const planted: AccessRuleRegistry = { ...accessRules, unlocked: { allows: (ctx) => (ctx.access as { space: { title: string } }).space.title !== 'Closed' } };
    const objects = createPermissions(planted);
    expect(() => objects.space(spaceRow(1, 'open'), 'edit')).toThrow(/read space\.title, which the permissions object's key leaves out/);
  });
});
