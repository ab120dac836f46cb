import { describe, expect, it } from 'vitest';
import { listOperations, loadSpec, type OpenApiDocument } from './operations.js';
import { accessSentence, renderReference } from './reference-render.js';

/** The `<article>` of one operation in the rendered page. */
function article(html: string, operationId: string): string {
  const start = html.indexOf(`data-operation-id="${operationId}"`);
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf('</article>', start));
}

describe('the reference page', () => {
  it('has one article per operation of the contract, each with an access line', () => {
    const html = renderReference(loadSpec());
    const operations = listOperations();
    expect(html.match(/<article class="operation"/g)).toHaveLength(operations.length);
    for (const operation of operations) expect(article(html, operation.operationId)).toContain('<p class="access"');
  });

  it('shows a declared x-access as a visible line, and falls back on the description without one', () => {
    const spec = structuredClone(loadSpec()) as OpenApiDocument;
    spec.paths['/v1/spaces/{spaceId}']!.patch['x-access'] = { scope: 'space', minimum: 'admin' };
    spec.paths['/v1/spaces/{spaceId}/change-requests/{changeRequestId}']!.patch['x-access'] = { scope: 'change-request', minimum: 'review', rule: 'authorOrReview' };
    const html = renderReference(spec);
    expect(article(html, 'updateSpaceById')).toContain('<p class="access" data-declared="true">Access: <code>admin</code> on the space</p>');
    expect(article(html, 'updateChangeRequestById')).toContain('Access: <code>review</code> on the change request, rule <code>authorOrReview</code></p>');
    expect(article(html, 'getSpaceById')).toContain('<p class="access" data-declared="false">Access (from the description): Needs <code>read</code> on the space.</p>');
  });

  it('words every kind of minimum', () => {
    expect(accessSentence({ scope: 'organization', minimum: 'guest' })).toBe('any member of the organization, guests included');
    expect(accessSentence({ scope: 'organization', minimum: 'member' })).toBe('a member of the organization (not a guest)');
    expect(accessSentence({ scope: 'user', minimum: 'authenticated' })).toBe('any authenticated user');
    expect(accessSentence({ scope: 'public', minimum: 'authenticated' })).toBe('public: no token needed');
  });

  it('escapes what the spec says rather than running it', () => {
    const spec = structuredClone(loadSpec()) as OpenApiDocument;
    spec.paths['/v1/user']!.get.summary = '<script>alert(1)</script>';
    spec.paths['/v1/user']!.get.description = 'Hello <img src=x onerror=alert(1)> [link](javascript:alert(1))';
    const html = renderReference(spec);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });
});
