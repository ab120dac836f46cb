// The order vitest starts the test files in (vitest.config.ts `sequence.sequencer`): longest first,
// whatever their project, so the four workers finish together rather than one running the contract
// fuzz alone at the end (docs/decisions.md, "Test suite speed, round 3").
//
// vitest's own order puts each project's files after the previous project's (sdk, server,
// server:isolated, tools) and, on a fresh clone with no recorded durations (CI), the larger files first:
// the 50 s spec:diff test ran last, the fuzz and the matrix started a third of the way in. Here a file's
// expected time is its duration in vitest's cache of the last run when there is one (a developer's
// machine), else the figure below from the last fresh-clone CI run, else nothing (then larger first).
// The short files (under LONG_MS) keep their projects together, the `server` project's first: a
// `server` worker imports the server's modules once and runs file after file with them
// (packages/server/vitest.server-projects.ts) only while the next file in line is also the `server`
// project's, so each file of another project between two of them costs a worker a fresh import.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each file took in the fresh-clone `.ci/run` on an idle 2-core machine (2026-11-28, 4 files
 * at a time): the files of 10 s and more (LONG_MS). Only the order depends on them: a stale figure
 * costs a little wall time, never a test.
 */
const KNOWN_SECONDS: Record<string, number> = {
  'server:packages/server/test/fuzz/contract-fuzz.test.ts': 302,
  'server:packages/server/test/authz/matrix.test.ts': 223,
  'server:packages/server/test/deploy/two-instances.test.ts': 101,
  'server:packages/server/test/deploy/artifact.test.ts': 101,
  'server:packages/server/test/integration/cli.test.ts': 86,
  'server:packages/server/test/integration/published-sites-reading.browser.test.ts': 79,
  'server:packages/server/test/deploy/built-server.test.ts': 65,
  'server:packages/server/test/authz/permissions.test.ts': 62,
  'server:packages/server/test/deploy/start-failures.test.ts': 59,
  'server:packages/server/test/integration/published-sites.browser.test.ts': 56,
  'server:packages/server/test/contract/sweep.test.ts': 53,
  'tools:tools/openapi/diff.test.ts': 51,
  'server:packages/server/test/integration/events.test.ts': 51,
  'server:packages/server/test/deploy/process-lifetime.test.ts': 43,
  'server:packages/server/test/integration/webhooks.test.ts': 43,
  'server:packages/server/src/parsing/parse-pool.test.ts': 41,
  'server:packages/server/test/fault/launcher-killed.test.ts': 37,
  'server:packages/server/test/fault/webhook-kill.test.ts': 37,
  'server:packages/server/test/integration/markdown-limits.test.ts': 36,
  'server:packages/server/test/integration/comments.test.ts': 31,
  'server:packages/server/test/integration/sdk-readme.test.ts': 28,
  'server:packages/server/test/integration/round-trips.test.ts': 26,
  'server:packages/server/test/fault/database-outage.test.ts': 25,
  'server:packages/server/test/integration/published-sites-agents.test.ts': 23,
  'server:packages/server/test/integration/reference.test.ts': 22,
  'server:packages/server/test/integration/links.test.ts': 22,
  'server:packages/server/test/integration/content-import-limits.test.ts': 22,
  'server:packages/server/test/integration/comment-anchoring.test.ts': 21,
  'server:packages/server/test/integration/published-sites.test.ts': 21,
  'server:packages/server/test/fault/shutdown-drain.test.ts': 21,
  'server:packages/server/test/integration/site-structure.test.ts': 20,
  'server:packages/server/test/integration/search.test.ts': 19,
  'server:packages/server/test/integration/sites.test.ts': 19,
  'server:packages/server/test/integration/site-hostnames.test.ts': 19,
  'server:packages/server/test/integration/content-reads.test.ts': 17,
  'server:packages/server/test/fault/shutdown-deadline.test.ts': 17,
  'server:packages/server/test/integration/site-redirects.test.ts': 17,
  'server:packages/server/test/integration/published-sites-blocks.browser.test.ts': 16,
  'server:packages/server/test/integration/published-sites-rendering.test.ts': 16,
  'server:packages/server/test/integration/published-sites-social.test.ts': 16,
  'server:packages/server/test/agents/agent-markdown-round-trip.test.ts': 16,
  'server:packages/server/test/integration/site-feedback-insights.test.ts': 15,
  'server:packages/server/test/integration/sso.test.ts': 15,
  'server:packages/server/test/integration/published-sites-search-json.test.ts': 14,
  'server:packages/server/test/integration/change-request-merge.test.ts': 14,
  'server:packages/server/test/integration/site-feedback.browser.test.ts': 14,
  'server:packages/server/test/integration/openapi-specs.test.ts': 13,
  'server:packages/server/test/integration/grants.test.ts': 13,
  'tools:tools/lint/repository-docs.test.ts': 13,
  'server:packages/server/test/integration/content-batch.test.ts': 13,
  'server:packages/server/test/integration/sso-scope.test.ts': 12,
  'server:packages/server/test/agents/site-mcp.test.ts': 11,
  'server:packages/server/test/agents/mcp.test.ts': 11,
  'server:packages/server/test/integration/content-store.test.ts': 11,
  'server:packages/server/test/integration/garbage-collection.test.ts': 10,
  'server:packages/server/test/integration/custom-fields.test.ts': 10,
  'server:packages/server/test/integration/change-request-content.test.ts': 10,
  'server:packages/server/test/integration/spaces.test.ts': 10,
  'server:packages/server/src/http/reference-examples.test.ts': 10,
  'server:packages/server/test/integration/openapi-jobs.test.ts': 10,
};

/** A file expected to take this long or longer goes by its time alone; shorter ones stay with their project. */
const LONG_MS = 10_000;
/** The project whose workers share their imports: its short files come first, right after the long ones. */
const SHARED_PROJECT = 'server';

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const facts = new Map(
      files.map((file) => {
        const key = `${file.project.name}:${relative(config.root, file.moduleId)}`;
        const ms = cache.getFileTestResults(key)?.duration ?? (KNOWN_SECONDS[key] ?? 0) * 1000;
        const group = ms >= LONG_MS ? '0' : file.project.name === SHARED_PROJECT ? '1' : `2${file.project.name}`;
        return [file, { ms, group, size: cache.getFileStats(key)?.size ?? 0 }];
      }),
    );
    return [...files].sort((a, b) => {
      const x = facts.get(a)!;
      const y = facts.get(b)!;
      if (x.group !== y.group) return x.group < y.group ? -1 : 1;
      return y.ms - x.ms || y.size - x.size;
    });
  }
}
