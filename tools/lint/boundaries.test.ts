// The server's floors hold (eslint.config.js, docs/architecture.md "The server's layers"): planted
// source files, linted with the repository's own ESLint configuration at paths inside the server,
// break each rule once, beside a control that keeps to it (so a rule that stopped matching anything
// fails here too).
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../openapi/paths.js';

const eslint = new ESLint({ cwd: repoRoot });

/** The boundary and import rules' messages for `code` planted at `path` (under packages/server/src/). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const planted = 1;\n`, { filePath: join(repoRoot, 'packages/server/src', path) });
  return result!.messages.filter((m) => m.ruleId === 'boundaries/dependencies' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('areas reach one another only through index.ts', () => {
  it('refuses an area importing another area’s internals', async () => {
    const errors = await boundaryErrors('areas/collections/planted.ts', "import { findSpaceRows } from '../spaces/spaces.repository.js';\nvoid findSpaceRows;");
    expect(errors).toEqual([expect.stringContaining('only through its index.ts')]);
  });

  it('refuses it for types too', async () => {
    const errors = await boundaryErrors('areas/collections/planted.ts', "import type { TeamRow } from '../teams/teams.repository.js';\nexport type T = TeamRow;");
    expect(errors).toEqual([expect.stringContaining('only through its index.ts')]);
  });

  it('lets an area use another through its index.ts, and its own files directly', async () => {
    expect(await boundaryErrors('areas/collections/planted.ts', "import { findSpaceRows } from '../spaces/index.js';\nvoid findSpaceRows;")).toEqual([]);
    expect(await boundaryErrors('areas/collections/planted.ts', "import { findCollectionRow } from './collections.repository.js';\nvoid findCollectionRow;")).toEqual([]);
  });
});

describe('repositories know no area and nothing of HTTP, on top of their floor’s rules', () => {
  it('refuses an area’s repository importing another area, even through its index.ts', async () => {
    const errors = await boundaryErrors('areas/teams/planted.repository.ts', "import { toApiMember } from '../members/index.js';\nvoid toApiMember;");
    expect(errors).toEqual([expect.stringContaining('Repositories return rows')]);
  });

  it('refuses a repository below the areas importing an area (the rule once replaced the floor’s)', async () => {
    const errors = await boundaryErrors('access/planted.repository.ts', "import { findSpaceRows } from '../areas/spaces/index.js';\nvoid findSpaceRows;");
    expect(errors).toEqual([expect.stringContaining('Repositories return rows')]);
    // The floor's own rule still holds for the other files of access/ (one message per import: the rule
    // that decided).
    expect(await boundaryErrors('access/planted.ts', "import { findSpaceRows } from '../areas/spaces/index.js';\nvoid findSpaceRows;")).toEqual([
      expect.stringContaining('access may not import area'),
    ]);
  });

  it('refuses a repository importing http/ or the API errors', async () => {
    expect(await boundaryErrors('areas/teams/planted.repository.ts', "import { keysetPage } from '../../db/pagination.js';\nimport type { AreaHandlers } from '../../http/handler.js';\nvoid keysetPage;\nexport type H = AreaHandlers;")).toEqual([
      expect.stringContaining('Repositories return rows'),
    ]);
    expect(await boundaryErrors('areas/teams/planted.repository.ts', "import { notFound } from '../../errors.js';\nvoid notFound;")).toEqual([expect.stringContaining('know nothing of HTTP')]);
  });

  it('lets a repository use db/, the leaves and its own area', async () => {
    expect(
      await boundaryErrors(
        'areas/teams/planted.repository.ts',
        "import { keysetPage } from '../../db/pagination.js';\nimport { newId } from '../../ids.js';\nimport { findTeam } from './teams.repository.js';\nvoid [keysetPage, newId, findTeam];",
      ),
    ).toEqual([]);
  });
});

describe('each floor imports only the floors below it', () => {
  it.each([
    ['db/planted.ts', "import { viewerFor } from '../access/viewer.js';\nvoid viewerFor;", 'db may not import access'],
    ['http/planted.ts', "import { searchPages } from '../content/search/search.js';\nvoid searchPages;", 'http may not import content'],
    ['http/planted.ts', "import { spacesArea } from '../areas/spaces/index.js';\nvoid spacesArea;", 'http may not import area'],
    ['content/planted.ts', "import { viewerFor } from '../access/viewer.js';\nvoid viewerFor;", 'content may not import access'],
    ['auth/planted.ts', "import { viewerFor } from '../access/viewer.js';\nvoid viewerFor;", 'auth may not import access'],
    ['jobs/planted.ts', "import { areas } from '../areas/index.js';\nvoid areas;", 'jobs may not import areas-registry'],
    ['areas/spaces/planted.ts', "import { createApp } from '../../app.js';\nvoid createApp;", 'area may not import process'],
    ['publication/planted.ts', "import { findSite } from '../areas/sites/index.js';\nvoid findSite;", 'publication may not import area'],
  ])('refuses %s importing %s', async (path, code, message) => {
    expect(await boundaryErrors(path, code)).toEqual([expect.stringContaining(message)]);
  });

  it('allows type imports where a floor only needs the types', async () => {
    expect(await boundaryErrors('content/planted.ts', "import type { Viewer } from '../access/listing.repository.js';\nexport type V = Viewer;")).toEqual([]);
    expect(await boundaryErrors('areas/spaces/planted.ts', "import type { AreaHandlers } from '../../http/handler.js';\nexport type H = AreaHandlers;")).toEqual([]);
    expect(await boundaryErrors('areas/spaces/planted.ts', "import { keysetPage } from '../../http/router.js';\nvoid keysetPage;")).toEqual([
      expect.stringContaining('area may not import http'),
    ]);
  });
});
